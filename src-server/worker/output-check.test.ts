import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { z } from 'zod';
import { NO_QUERY } from '../resource-kit/contract.ts';
import { failure, ok } from '../resource-kit/results.ts';
import type { ActionContext, CustomMethodDecl } from '../resource-kit/types.ts';
import { DIAGNOSTICS_MODULE, withTestServer } from '../test-support/server.ts';
import { findHandler } from './dispatch.ts';
import { withCheckedOutput } from './output-check.ts';

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
