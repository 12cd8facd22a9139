import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { NO_BODY } from '../resource-kit/contract.ts';
import { ok } from '../resource-kit/results.ts';
import type { ActionContext, CustomMethodDecl } from '../resource-kit/types.ts';
import { describeIssue, withCheckedInput } from './input-check.ts';

const method = (input: z.ZodType): CustomMethodDecl => ({
  verbs: ['GET', 'POST'],
  scope: 'collection',
  level: 'READ',
  input,
  output: z.unknown(),
});
const ctx = (verb: 'GET' | 'POST', query: Record<string, string | string[]>, body: unknown) =>
  ({ verb, query, body }) as unknown as ActionContext;

describe('the worker checks a custom method input before its action', () => {
  const input = z.object({
    ip: z.string({ error: 'ip is required.' }),
    reason: z.string().max(3, { error: 'text of at most 3 characters.' }).optional(),
    list: z.array(z.enum(['A', 'B'])).optional(),
  });
  let runs = 0;
  const handler = withCheckedInput(method(input), () => (runs++, ok({ done: true })));

  it('runs the action on valid input: the body for POST, the last value of each query parameter for GET', async () => {
    assert.equal((await handler(ctx('POST', { ip: 'ignored' }, { ip: '192.0.2.1' }))).result, true);
    assert.equal((await handler(ctx('GET', { ip: ['x', '192.0.2.1'] }, 'ignored'))).result, true);
    assert.equal(runs, 2);
  });

  it('refuses invalid input with 422 naming each field, and the action never runs', async () => {
    const result = await handler(ctx('POST', {}, { reason: 'long text', list: ['A', 'C', 'D'] }));
    assert.equal(runs, 2);
    assert.equal(result.httpCode, 422);
    assert.equal(result.result, false);
    // The field keeps a message that names it; one line per field, even for two bad list items.
    assert.deepEqual(result.messages?.error, [
      'ip is required.',
      'reason: text of at most 3 characters.',
      'list: Invalid option: expected one of "A"|"B"',
    ]);
  });

  it('treats no body or a JSON null as an empty object, and a strict empty input refuses any field', async () => {
    const none = withCheckedInput(method(NO_BODY), () => ok([]));
    assert.equal((await none(ctx('POST', {}, null))).result, true);
    const extra = await none(ctx('POST', {}, { surprise: 1 }));
    assert.equal(extra.httpCode, 422);
    assert.match(extra.messages!.error![0]!, /surprise/);
  });

  it('says a root-level issue as the schema wrote it', () => {
    const issue = z.object({}, { error: 'config: the body must be an object.' }).safeParse('text').error!.issues[0]!;
    assert.equal(describeIssue(issue), 'config: the body must be an object.');
  });
});
