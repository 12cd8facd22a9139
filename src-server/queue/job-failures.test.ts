import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../wire/errors.ts';
import { MAX_BODY_DEPTH } from '../http/body.ts';
import { FAILED_JOBS_RETENTION } from '../storage/failed-jobs.ts';
import { captureLogs } from '../test-support/captured-logs.ts';
import { DIAGNOSTICS_MODULE, useTestServer } from '../test-support/server.ts';

const DIAG = '/pbxcore/api/v3/diagnostics';
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('job failures: input errors, unexpected errors and the failed_jobs table', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- log lines
  const { logger, lines } = captureLogs<Record<string, any>>('warn');
  const parkedCount = () =>
    (t.server.services.db.prepare('SELECT COUNT(*) AS n FROM failed_jobs').get() as { n: number }).n;

  const t = useTestServer({
    resourceModules: [DIAGNOSTICS_MODULE],
    logger,
    exampleModules: true,
  });

  it('refuses a deeply nested JSON body with 400 before queueing, on every queued route, authenticated or not', async () => {
    const body = nested(10_000); // 20 KB
    for (const [who, call] of [
      ['remote', t.remote],
      ['loopback', t.call],
    ] as const) {
      for (const path of [
        '/pbxcore/api/v3/firewall',
        '/pbxcore/api/v3/extensions',
        `${DIAG}:echo`,
        '/pbxcore/api/modules/ExampleCallback/ping',
      ]) {
        const res = await call(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 400, `${who} ${path}: ${res.text}`);
        assert.equal(res.json.result, false);
        assert.match(res.json.messages.error[0], new RegExp(`deeper than the limit of ${MAX_BODY_DEPTH} levels`));
        assert.ok(res.headers['e-tag']);
      }
    }
    assert.equal(parkedCount(), 0);
  });

  it('accepts a body exactly at the depth limit; brackets inside strings do not count', async () => {
    const atLimit = await t.call(`${DIAG}:echo`, {
      method: 'POST',
      body: nested(MAX_BODY_DEPTH),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(atLimit.status, 200, atLimit.text);
    const overLimit = await t.call(`${DIAG}:echo`, {
      method: 'POST',
      body: nested(MAX_BODY_DEPTH + 1),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(overLimit.status, 400);
    const inStrings = await t.call(`${DIAG}:echo`, {
      method: 'POST',
      body: { text: '[[[['.repeat(100), quote: '\\"[{' },
    });
    assert.equal(inStrings.status, 200, inStrings.text);
    assert.equal(inStrings.json.data.body.text.length, 400);
  });

  it('never retries or parks a job that cannot be handed to a worker', async () => {
    const before = parkedCount();
    const job = {
      target: { resource: 'diagnostics', operation: 'echo', verb: 'POST' as const },
      query: {},
      body: JSON.parse(nested(10_000)) as unknown, // what the body parser now refuses, given straight to the queue
      headers: {},
      session: null,
      canReadSensitive: true,
      ttlExempt: false,
    };
    await assert.rejects(
      t.server.services.queue.run(job),
      (error: unknown) => error instanceof HttpError && error.status === 400,
    );
    assert.equal(parkedCount(), before, 'not parked');
    const refused = lines.filter((l) => l.msg === 'job refused: it cannot be handed to a worker');
    assert.equal(refused.length, 1, 'one try, no retries');
    assert.equal(refused[0]!.err.name, 'RangeError');
    assert.match(refused[0]!.err.message, /call stack/);
  });

  it('logs an unexpected failure as the real error (name, message, stack), retries it and parks it with its cause', async () => {
    const res = await t.call(`${DIAG}:flaky?tag=logged&failures=99`, { method: 'POST', body: {} });
    assert.equal(res.status, 500);
    const failed = lines.filter((l) => l.msg === 'job failed' && l.target?.operation === 'flaky');
    assert.equal(failed.length, 3);
    for (const [i, line] of failed.entries()) {
      assert.equal(line.err.name, 'Error');
      assert.equal(line.err.message, `flaky failure ${i + 1}`);
      assert.match(line.err.stack, /diagnostics-resource\.ts/, "the stack is the worker's, where it failed");
    }
    const row = t.server.services.db
      .prepare("SELECT error FROM failed_jobs WHERE target LIKE '%flaky%' ORDER BY id DESC")
      .get() as { error: string };
    assert.equal(row.error, 'Error: flaky failure 3');
    assert.ok(!lines.some((l) => JSON.stringify(l).includes('[object Object]')));
  });

  it(`keeps parked jobs ${FAILED_JOBS_RETENTION.days} days and at most ${FAILED_JOBS_RETENTION.maxRows} rows`, async () => {
    const db = t.server.services.db;
    const insert = db.prepare(
      "INSERT INTO failed_jobs (job_id, target, attempts, error, failed_at) VALUES (?, '{}', 3, 'old', ?)",
    );
    const day = 86_400_000;
    db.transaction(() => {
      insert.run('too-old', new Date(Date.now() - (FAILED_JOBS_RETENTION.days + 1) * day).toISOString());
      insert.run('recent-old', new Date(Date.now() - (FAILED_JOBS_RETENTION.days - 1) * day).toISOString());
      for (let i = 0; i < FAILED_JOBS_RETENTION.maxRows + 5; i++) insert.run(`filler-${i}`, new Date().toISOString());
    })();
    const res = await t.call(`${DIAG}:flaky?tag=pruning&failures=99`, { method: 'POST', body: {} });
    assert.equal(res.status, 500);
    assert.equal(parkedCount(), FAILED_JOBS_RETENTION.maxRows);
    const rows = db.prepare('SELECT job_id, target FROM failed_jobs ORDER BY id').all() as Array<{
      job_id: string;
      target: string;
    }>;
    const ids = rows.map((r) => r.job_id);
    assert.ok(!ids.includes('too-old'), `older than ${FAILED_JOBS_RETENTION.days} days: removed`);
    assert.ok(!ids.includes('recent-old') && !ids.includes('filler-0'), 'over the row limit: the oldest go first');
    assert.match(rows.at(-1)!.target, /flaky/, 'the job just parked is kept');
  });
});
