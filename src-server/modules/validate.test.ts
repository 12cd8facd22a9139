import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { ok } from '../resource-kit/results.ts';
import type { ResourceDefinition } from '../resource-kit/types.ts';
import { exportsProblem, routeLevel } from './validate.ts';

const resource = (patch: Record<string, unknown> = {}): ResourceDefinition =>
  ({
    declaration: {
      name: 'module-demo/items',
      description: 'Demo items.',
      security: { permission: 'Demo', channels: ['localhost', 'bearer_token'] },
      fields: { title: { schema: z.string(), storage: 'text', required: true } },
      operations: ['getList'],
      ...patch,
    },
    actions: { getList: () => ok([]) },
  }) as ResourceDefinition;

describe('module exports validation', () => {
  it('accepts a well-formed module of each style', () => {
    assert.equal(exportsProblem('v3', { resources: [resource()] }), undefined);
    assert.equal(
      exportsProblem('v2', { routes: [{ action: 'status', methods: ['GET'], handler: () => ok(1), public: true }] }),
      undefined,
    );
    assert.equal(exportsProblem('v1', { callback: () => ok(1), publicActions: ['ping'] }), undefined);
  });

  it('names the problem in an invalid v3 resource', () => {
    assert.match(exportsProblem('v3', {})!, /non-empty "resources" array/);
    assert.match(
      exportsProblem('v3', { resources: [resource({ operations: ['explode'] })] })!,
      /module-demo\/items: declaration\.operations\.0/,
    );
    assert.match(
      exportsProblem('v3', { resources: [resource({ fields: { title: { schema: 'text', storage: 'text' } } })] })!,
      /must be a zod schema/,
    );
    assert.match(
      exportsProblem('v3', { resources: [resource({ security: { permission: 'X', channels: [] } })] })!,
      /channels/,
    );
    assert.match(exportsProblem('v3', { resources: [resource({ name: 'bad name' })] })!, /name/);
    assert.match(
      exportsProblem('v3', {
        resources: [resource({ customMethods: { 'a:b': { verbs: ['GET'], scope: 'collection', level: 'READ' } } })],
      })!,
      /customMethods\.a:b/,
    );
  });

  it('names the problem in an invalid v2 route table or v1 callback', () => {
    assert.match(exportsProblem('v2', { routes: [] })!, /non-empty "routes"/);
    assert.match(
      exportsProblem('v2', { routes: [{ action: 'a/b', methods: ['GET'], handler: () => ok(1) }] } as never)!,
      /routes\[0\]\.action/,
    );
    assert.match(
      exportsProblem('v2', {
        routes: [
          { action: 'x', methods: ['GET'], handler: () => ok(1) },
          { action: 'x', methods: ['POST'], handler: () => ok(1) },
        ],
      })!,
      /"x" twice/,
    );
    assert.match(
      exportsProblem('v2', { routes: [{ action: 'x', methods: ['BREW'], handler: () => ok(1) }] } as never)!,
      /methods/,
    );
    assert.match(exportsProblem('v1', {})!, /"callback" function/);
    assert.match(exportsProblem('v1', { callback: () => ok(1), publicActions: ['no spaces'] })!, /publicActions/);
    assert.match(
      exportsProblem('v1', { callback: () => ok(1), install: 'yes' } as never)!,
      /"install" must be a function/,
    );
  });

  it('defaults a route to READ for GET and WRITE otherwise', () => {
    assert.equal(routeLevel({ methods: ['GET'] }), 'READ');
    assert.equal(routeLevel({ methods: ['GET', 'POST'] }), 'WRITE');
    assert.equal(routeLevel({ methods: ['GET'], level: 'ADMIN' }), 'ADMIN');
  });
});
