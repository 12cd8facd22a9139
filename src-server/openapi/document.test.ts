import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { field } from '../resource-kit/fields.ts';
import type { ResourceDeclaration } from '../resource-kit/types.ts';
import { componentName, buildOpenApiDocument } from './document.ts';

type Doc = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const settings: ResourceDeclaration = {
  name: 'demo-settings',
  description: 'A singleton.',
  kind: 'singleton',
  security: { permission: 'Demo', channels: ['localhost'] },
  fields: { retries: field.integer(z.number().int().min(1), { default: 3 }) },
  operations: ['getRecord', 'update', 'patch'],
};
const keys: ResourceDeclaration = {
  name: 'demo-keys',
  description: 'An older action.',
  requireOnEveryVerb: true,
  security: { permission: 'Keys', channels: ['localhost', 'bearer_token'], levels: { delete: 'ADMIN' } },
  fields: {
    description: field.text(z.string().min(1), { required: true }),
    key: field.text(z.string(), { writeOnly: true }),
  },
  operations: ['getList', 'patch', 'delete'],
  customMethods: {
    find: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'READ',
      input: z.object({ q: z.string(), max: z.number().optional() }),
      output: z.array(z.string()),
    },
    hello: {
      verbs: ['GET', 'POST'],
      scope: 'collection',
      level: 'READ',
      public: true,
      input: z.object({}),
      output: z.object({ hello: z.string() }),
    },
  },
};
const build = () =>
  buildOpenApiDocument({ declarations: [settings, keys], version: '9.9.9', fixed: [] }) as unknown as Doc;

describe('buildOpenApiDocument', () => {
  it('maps a singleton to GET, PUT and PATCH on its own path, without ids', () => {
    const doc = build();
    assert.deepEqual(Object.keys(doc.paths['/pbxcore/api/v3/demo-settings']!).sort(), ['get', 'patch', 'put']);
    assert.equal(doc.paths['/pbxcore/api/v3/demo-settings/{id}'], undefined);
    assert.deepEqual(
      doc.paths['/pbxcore/api/v3/demo-settings']!.get!.security,
      [],
      'loopback-only resources list no scheme',
    );
    assert.deepEqual(doc.paths['/pbxcore/api/v3/demo-settings']!.get!['x-pbx-channels'], ['localhost']);
  });

  it('keeps required fields on PATCH for older actions, and marks write-only fields', () => {
    const doc = build();
    const patch = doc.paths['/pbxcore/api/v3/demo-keys/{id}']!.patch as {
      requestBody: { content: Record<string, { schema: { required?: string[] } }> };
    };
    assert.deepEqual(patch.requestBody.content['application/json']!.schema.required, ['description']);
    assert.equal(
      (doc.components.schemas.DemoKeys!.properties as Record<string, { writeOnly?: boolean }>).key!.writeOnly,
      true,
    );
    assert.equal(doc.paths['/pbxcore/api/v3/demo-keys/{id}']!.delete!['x-permission'], 'Keys:ADMIN');
  });

  it('turns a GET custom method input into query parameters, and a public method needs no credential', () => {
    const doc = build();
    const find = doc.paths['/pbxcore/api/v3/demo-keys:find']!.get as {
      parameters: Array<{ name?: string; required?: boolean; $ref?: string }>;
    };
    const query = find.parameters.filter((p) => p.name);
    assert.deepEqual(
      query.map((p) => [p.name, p.required]),
      [
        ['q', true],
        ['max', false],
      ],
    );
    assert.ok(find.parameters.some((p) => p.$ref === '#/components/parameters/asyncChannel'));
    const hello = doc.paths['/pbxcore/api/v3/demo-keys:hello']!;
    assert.deepEqual(Object.keys(hello).sort(), ['get', 'post']);
    assert.deepEqual(hello.post!.security, []);
    assert.notEqual(hello.get!.operationId, hello.post!.operationId);
  });

  it('names components after resource paths', () => {
    assert.equal(componentName('module-example-tasks/tasks'), 'ModuleExampleTasksTasks');
    assert.equal(componentName('general-settings'), 'GeneralSettings');
  });
});
