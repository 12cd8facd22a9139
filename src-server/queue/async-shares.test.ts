import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { DIAGNOSTICS_MODULE, useTestServer } from '../test-support/server.ts';
import { MAX_RESULT_BYTES_PER_OWNER, MAX_RESULTS_PER_OWNER } from './async-jobs.ts';
import { RESULT_LIFETIME_MS } from './result-store.ts';

/**
 * Issue 19 item 13: asynchronous results are capped by count and bytes per caller, and nothing
 * acknowledged is lost silently. Requests come from 127.0.0.1 (never rate-limited) with API keys.
 */

const EVENTS = '/pbxcore/api/v3/events';
const DIAG = '/pbxcore/api/v3/diagnostics';

describe('asynchronous results: a share per caller', () => {
  const clock = new ManualClock(Date.now());
  let keyA: string;
  let keyB: string;

  const t = useTestServer({ clock, resourceModules: [DIAGNOSTICS_MODULE] });
  before(async () => {
    const paths = { '/api/v3/diagnostics': 'read', '/api/v3/events': 'read' } as const;
    keyA = createTestApiKey(t.server.services.db, { allowedPaths: paths }).key;
    keyB = createTestApiKey(t.server.services.db, { allowedPaths: paths }).key;
  });

  const startAsync = (key: string, path: string, channel = 'share') =>
    t.call(path, { headers: { 'x-api-key': key, 'x-async-channel': channel } });
  const waitResult = async (key: string, jobId: string, channel = 'share') => {
    for (;;) {
      const answer = await t.call(`${EVENTS}?channel=${channel}&jobId=${jobId}`, { headers: { 'x-api-key': key } });
      if (answer.status !== 202) return answer;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it(
    'past the count share a caller gets 429 with Retry-After before anything is acknowledged; ' +
      'others are unaffected; expiry frees it',
    async () => {
      const ids: string[] = [];
      for (let i = 0; i < MAX_RESULTS_PER_OWNER; i++) {
        const accepted = await startAsync(keyA, `${DIAG}:echo?n=${i}`);
        assert.equal(accepted.status, 200, accepted.text);
        ids.push(accepted.json.data.jobId);
        // One at a time: the queue's own length limit (503) is not under test.
        assert.equal((await waitResult(keyA, accepted.json.data.jobId)).status, 200);
      }
      const refused = await startAsync(keyA, `${DIAG}:echo?n=over`);
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.json.result, false);
      assert.match(refused.json.messages.error[0], new RegExp(`${MAX_RESULTS_PER_OWNER} asynchronous results`));
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= RESULT_LIFETIME_MS / 1000, `Retry-After ${retryAfter}`);
      assert.equal((await startAsync(keyB, `${DIAG}:echo?n=b`)).status, 200, 'another key keeps its own share');
      // Every acknowledged result is still there.
      for (const id of ids) assert.equal((await waitResult(keyA, id)).json.function, 'echo');
      assert.equal(
        (await t.call(`${DIAG}:echo?n=sync`, { headers: { 'x-api-key': keyA } })).status,
        200,
        'synchronous requests are not limited by it',
      );
      clock.advance(RESULT_LIFETIME_MS + 1);
      assert.equal((await startAsync(keyA, `${DIAG}:echo?n=after`)).status, 200, 'expired results free the share');
      clock.advance(RESULT_LIFETIME_MS + 1);
    },
  );

  it('past the byte share a finished result says it ran and was not kept; smaller ones still fit; expiry frees the bytes', async () => {
    const kb = 1024;
    const perResult = kb * 1024;
    const fits = Math.floor(MAX_RESULT_BYTES_PER_OWNER / (perResult + 512));
    for (let i = 0; i < fits; i++) {
      const accepted = await startAsync(keyA, `${DIAG}:big?kb=${kb}&n=${i}`, 'bytes');
      assert.equal(accepted.status, 200, accepted.text);
      const kept = await waitResult(keyA, accepted.json.data.jobId, 'bytes');
      assert.equal(kept.status, 200);
      assert.equal(kept.json.data.blob.length, perResult);
    }
    const over = await startAsync(keyA, `${DIAG}:big?kb=${kb}&n=over`, 'bytes');
    assert.equal(over.status, 200, 'still under the share when it starts: acknowledged');
    const notKept = await waitResult(keyA, over.json.data.jobId, 'bytes');
    assert.equal(notKept.status, 503);
    assert.match(notKept.json.messages.error[0], /ran and answered 200, but its result \(\d+ bytes\) was not kept/);
    assert.ok(notKept.text.length < 2048, 'the refusal is small');
    const small = await startAsync(keyA, `${DIAG}:echo?n=small`, 'bytes');
    assert.equal(
      (await waitResult(keyA, small.json.data.jobId, 'bytes')).json.function,
      'echo',
      'a small result still fits and is kept',
    );
    clock.advance(RESULT_LIFETIME_MS + 1);
    const freed = await startAsync(keyA, `${DIAG}:big?kb=${kb}&n=freed`, 'bytes');
    assert.equal(
      (await waitResult(keyA, freed.json.data.jobId, 'bytes')).status,
      200,
      'expired results free the bytes',
    );
  });
});
