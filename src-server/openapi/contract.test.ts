import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { coreResources } from '../resources/index.ts';
import { buildOpenApiDocument } from './document.ts';

type Operation = { operationId: string; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

const declarations = coreResources.map((r) => r.declaration);
const document = buildOpenApiDocument({ declarations, version: '0.0.0', fixed: [] }) as unknown as Doc;
const V3 = '/pbxcore/api/v3/';

/** The `data` schema of an operation's success answer (the envelope's second part). */
function dataSchema(operation: Operation): unknown {
  const success = operation.responses['200'] ?? operation.responses['201'];
  const envelope = success?.content?.['application/json']?.schema as {
    allOf?: Array<{ properties?: { data?: unknown } }>;
  };
  return envelope?.allOf?.[1]?.properties?.data;
}

describe('the contract in the OpenAPI document', () => {
  const operations = Object.entries(document.paths)
    .filter(([path]) => path.startsWith(V3))
    .flatMap(([, item]) => Object.values(item));

  it('types every v3 answer: no operation documents `data` as {} or leaves it out', () => {
    assert.ok(operations.length > 60, `only ${operations.length} operations`);
    const untyped = operations
      .filter((op) => {
        const data = dataSchema(op);
        return data === undefined || (typeof data === 'object' && data !== null && Object.keys(data).length === 0);
      })
      .map((op) => op.operationId);
    assert.deepEqual(untyped, []);
  });

  it('documents firewall:banIp with its declared input and output', () => {
    const op = document.paths[`${V3}firewall:banIp`]!.post as unknown as {
      requestBody: {
        content: { 'application/json': { schema: { properties: Record<string, { maxLength?: number }> } } };
      };
    };
    assert.equal(op.requestBody.content['application/json'].schema.properties.reason?.maxLength, 200);
    const data = dataSchema(document.paths[`${V3}firewall:banIp`]!.post!) as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(data.properties).sort(), [
      'category',
      'id',
      'ip',
      'permanent',
      'reason',
      'scenario',
      'seconds',
      'services',
      'written',
    ]);
  });

  it('every declared custom method has a zod input and output schema', () => {
    const missing: string[] = [];
    for (const declaration of declarations) {
      for (const [name, method] of Object.entries(declaration.customMethods ?? {})) {
        // The type requires both; this catches a declaration that slips past it (a cast, a module object).
        if (!(method.input instanceof z.ZodType)) missing.push(`${declaration.name}:${name} input`);
        if (!(method.output instanceof z.ZodType)) missing.push(`${declaration.name}:${name} output`);
      }
    }
    assert.deepEqual(missing, []);
    const count = declarations.reduce((n, d) => n + Object.keys(d.customMethods ?? {}).length, 0);
    assert.ok(count >= 35, `only ${count} custom methods`);
  });
});
