import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { z } from 'zod';
import { NO_QUERY } from '../resource-kit/contract.ts';
import { failure, ok } from '../resource-kit/results.ts';
import type { ActionContext, CustomMethodDecl, ResourceDeclaration } from '../resource-kit/types.ts';
import { DIAGNOSTICS_MODULE, withTestServer } from '../test-support/server.ts';
import { findHandler } from './dispatch.ts';
import { withCheckedCrudOutput, withCheckedOutput } from './output-check.ts';

const method: CustomMethodDecl = {
  verbs: ['GET'],
  scope: 'collection',
  level: 'READ',
  input: z.object({ count: z.string().transform(Number).optional() }),
  output: z.object({ count: z.number() }),
};
const ctx = (query: Record<string, string> = {}) =>
  ({ verb: 'GET', query, body: undefined, resource: { name: 'probe' } }) as unknown as ActionContext;

describe('the worker checks a custom method answer against its declared output', () => {
  it('passes a matching answer and a refusal through as they are', async () => {
    const matching = withCheckedOutput('count', method, () => ok({ count: 1 }));
    assert.deepEqual(await matching(ctx()), ok({ count: 1 }));
    const refusal = withCheckedOutput('count', method, () => failure(409, 'busy'));
    assert.deepEqual(await refusal(ctx()), failure(409, 'busy'));
  });

  it('turns a mismatch into a 500 naming the method and the field, and logs it', async (t) => {
    const logged = t.mock.method(console, 'error', () => {});
    const broken = withCheckedOutput('count', method, () => ok({ count: 'one' }));
    const answer = await broken(ctx());
    assert.equal(answer.httpCode, 500);
    assert.match(answer.messages!.error![0]!, /^probe:count answered data that does not match .*count: /);
    assert.equal(logged.mock.callCount(), 1);
    assert.match(String(logged.mock.calls[0]!.arguments[0]), /probe:count/);
  });

  it('is wrapped in by dispatch only when checkOutputs is on, and the action gets the parsed input', async () => {
    const definition = {
      declaration: {
        name: 'probe',
        description: '',
        security: { permission: 'Probe', channels: ['localhost' as const] },
        fields: {},
        operations: [],
        customMethods: { count: method, none: { ...method, input: NO_QUERY } },
      },
      actions: { custom: { count: (c: ActionContext) => ok({ count: String(c.input) }) } },
    };
    const unchecked = findHandler(definition, 'count')!;
    assert.equal((await unchecked(ctx({ count: '2' }))).result, true);
    const checked = findHandler(definition, 'count', { checkOutputs: true })!;
    mock.method(console, 'error', () => {});
    assert.equal((await checked(ctx({ count: '2' }))).httpCode, 500);
    const echo = findHandler(
      { ...definition, actions: { custom: { count: (c: ActionContext) => ok(c.input) } } },
      'count',
      { checkOutputs: true },
    )!;
    assert.deepEqual((await echo(ctx({ count: '2' }))).data, { count: 2 });
    mock.restoreAll();
  });
});

describe('the worker checks a CRUD answer against the declared record', () => {
  const declaration: ResourceDeclaration = {
    name: 'probe',
    description: '',
    security: { permission: 'Probe', channels: ['localhost'] },
    fields: {
      name: { schema: z.string(), storage: 'text' },
      port: { schema: z.number().int(), storage: 'integer' },
      secret: { schema: z.string(), storage: 'text', writeOnly: true },
    },
    operations: ['getList', 'getRecord', 'create', 'delete'],
    createOutput: z.object({ name: z.string(), key: z.string() }),
  };
  const answer = (operation: string, data: unknown) =>
    withCheckedCrudOutput(declaration, operation, () => ok(data))(ctx());

  it('passes records with every readable field as declared, absent fields and extra ones included', async () => {
    assert.equal((await answer('getRecord', { id: 3, name: 'a', port: 5060 })).result, true);
    assert.equal((await answer('getList', [{ name: 'a' }, { port: 1 }])).result, true);
    assert.equal((await answer('delete', { id: 3 })).result, true);
    assert.equal((await answer('create', { name: 'a', key: 'k' })).result, true);
  });

  it('turns a field of another type, a list that is not one, or a create without its declared extra into a 500', async (t) => {
    t.mock.method(console, 'error', () => {});
    const port = await answer('getRecord', { name: 'a', port: '5060' });
    assert.equal(port.httpCode, 500);
    assert.match(port.messages!.error![0]!, /^probe\.getRecord answered data that does not match .*port/);
    assert.equal((await answer('getList', { name: 'a' })).httpCode, 500);
    assert.equal((await answer('getList', [{ name: 5 }])).httpCode, 500);
    assert.equal((await answer('create', { name: 'a' })).httpCode, 500);
  });

  it('leaves a resource without fields alone: it declares no record shape (openapi answers YAML text)', async () => {
    const bare = { ...declaration, fields: {}, createOutput: undefined };
    assert.equal((await withCheckedCrudOutput(bare, 'getRecord', () => ok('openapi: 3.1.0'))(ctx())).result, true);
  });

  it('is wrapped in by dispatch for CRUD only when checkOutputs is on', async (t) => {
    t.mock.method(console, 'error', () => {});
    const definition = { declaration, actions: { getRecord: () => ok({ port: 'x' }) } };
    assert.equal((await findHandler(definition, 'getRecord')!(ctx())).result, true);
    assert.equal((await findHandler(definition, 'getRecord', { checkOutputs: true })!(ctx())).httpCode, 500);
  });
});

describe('checkOutputs on a real server', () => {
  const path = '/pbxcore/api/v3/diagnostics:mismatch';

  it('is on in the test servers: an answer its output refuses is a 500 naming the method', async () => {
    await withTestServer({ resourceModules: [DIAGNOSTICS_MODULE] }, async (t) => {
      const answer = await t.call(path);
      assert.equal(answer.status, 500, answer.text);
      assert.match(answer.json.messages.error[0], /^diagnostics:mismatch answered data that does not match/);
    });
  });

  it('is off when the setting is (production): the answer goes out unchecked', async () => {
    await withTestServer({ resourceModules: [DIAGNOSTICS_MODULE], checkOutputs: false }, async (t) => {
      const answer = await t.call(path);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.json.data, { count: 'many' });
    });
  });
});
