import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIAGNOSTICS_MODULE, startTestServer, useTestServer, type TestServer } from '../test-support/server.ts';
import { waitUntil } from '../test-support/wait.ts';
import { serverConfigSchema } from '../config/schema.ts';

const DIAG = '/pbxcore/api/v3/diagnostics';
/** How many runs of `tag` the diagnostics resource logged (read from the file, not through the queue). */
function ranCount(server: TestServer, tag: string): number {
  try {
    return server.server.services.db
      .prepare('SELECT COUNT(*) FROM diagnostics_log WHERE tag = ?')
      .pluck()
      .get(tag) as number;
  } catch {
    return 0; // the table is made by the first run
  }
}

/** Raw GET that keeps the compressed body, to prove the worker's gzip reaches the client as-is. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('request queue and worker pool', () => {
  const t = useTestServer({ resourceModules: [DIAGNOSTICS_MODULE] });

  it('runs actions on 3 worker threads, reported as pid', async () => {
    const results = await Promise.all(Array.from({ length: 3 }, (_, i) => t.call(`${DIAG}:sleep?ms=300&tag=pid${i}`)));
    const pids = new Set(results.map((r) => r.json.pid));
    assert.equal(pids.size, 3, 'three sleeping jobs run on three different workers at once');
    for (const pid of pids) assert.ok(Number.isInteger(pid) && pid > 0);
  });

  it('holds two threads while idle: more start when jobs wait, and exit after workerIdleMs without a job', async () => {
    // The product's default (the test servers otherwise keep one idle thread).
    const idle = await startTestServer({
      resourceModules: [DIAGNOSTICS_MODULE],
      workerIdleMs: 300,
      workerIdleThreads: serverConfigSchema.parse({}).workerIdleThreads,
    });
    try {
      assert.equal(idle.server.services.queue.threads, 2, 'an idle server starts two workers');
      // A long job holds one thread: a short one meanwhile runs on the other, without a thread to start.
      // The long job runs until the test releases it (creates the file).
      const release = join(mkdtempSync(join(tmpdir(), 'pbx-queue-idle-')), 'release');
      let longDone = false;
      const long = idle.call(`${DIAG}:sleep?until=${encodeURIComponent(release)}&tag=long`).finally(() => {
        longDone = true;
      });
      await waitUntil('the long job runs', () => ranCount(idle, 'sleep:long') > 0);
      let short;
      try {
        short = await idle.call(`${DIAG}:sleep?ms=1&tag=short`);
        assert.equal(longDone, false, 'answered while the long one still runs');
      } finally {
        writeFileSync(release, '');
      }
      assert.equal(short.status, 200);
      assert.equal(idle.server.services.queue.threads, 2, 'the short job found a thread running');
      assert.notEqual(short.json.pid, (await long).json.pid, 'it ran beside the long one');
      const results = await Promise.all(
        Array.from({ length: 3 }, (_, i) => idle.call(`${DIAG}:sleep?ms=300&tag=grow${i}`)),
      );
      assert.equal(new Set(results.map((r) => r.json.pid)).size, 3, 'three waiting jobs ran on three threads');
      const deadline = Date.now() + 30_000;
      while (idle.server.services.queue.threads > 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      assert.equal(idle.server.services.queue.threads, 2, 'the extra thread exited once idle');
      assert.equal((await idle.call(`${DIAG}:sleep?ms=1&tag=after-idle`)).status, 200, 'the last ones still serve');
    } finally {
      await idle.close();
    }
  });

  it('answers 503 at once when more requests wait than APIQueueMaxLength', async () => {
    assert.equal(
      (await t.call('/pbxcore/api/v3/general-settings', { method: 'PATCH', body: { APIQueueMaxLength: 2 } })).status,
      200,
    );
    // The jobs ahead run until the test releases them (creates the file).
    const release = join(mkdtempSync(join(tmpdir(), 'pbx-queue-full-')), 'release');
    const settled: number[] = [];
    const busy = Array.from({ length: 5 }, (_, i) =>
      t.call(`${DIAG}:sleep?until=${encodeURIComponent(release)}&tag=fill${i}`).finally(() => settled.push(i)),
    ); // 3 running + 2 waiting
    const { queue } = t.server.services;
    await waitUntil('3 jobs running, 2 waiting', () => queue.threads === 3 && queue.waiting === 2);
    let deadline: NodeJS.Timeout | undefined;
    const refused = await Promise.race([
      t.call(`${DIAG}:sleep?ms=1&tag=refused`),
      new Promise<never>((_, reject) => {
        // Only if it queued behind the held jobs (which would wait for the test forever).
        deadline = setTimeout(() => reject(new Error('the request over the limit waited for the jobs ahead')), 30_000);
      }),
    ]).finally(() => {
      clearTimeout(deadline);
      const ahead = [...settled];
      writeFileSync(release, ''); // first: a failed assertion must not leave the jobs held
      assert.deepEqual(ahead, [], 'refused at once: while the jobs ahead still run, not after waiting for them');
    });
    assert.equal(refused.status, 503);
    assert.equal(refused.json.result, false);
    assert.match(refused.json.messages.error[0], /temporarily unavailable/);
    assert.ok(refused.headers['retry-after']);
    const statuses = (await Promise.all(busy)).map((r) => r.status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200], 'queued requests within the limit all complete');
    assert.equal((await t.call(`${DIAG}:runs?tag=sleep:refused`)).json.data.count, 0, 'the refused request never ran');
    await t.call('/pbxcore/api/v3/general-settings', { method: 'PATCH', body: { APIQueueMaxLength: 50 } });
  });

  it('drops a request older than APIRequestTTL when a worker picks it up; debug requests are exempt', async () => {
    await t.call('/pbxcore/api/v3/general-settings', { method: 'PATCH', body: { APIRequestTTL: 1 } });
    // The blockers hold every thread until the two requests behind them have waited past the TTL.
    const release = join(mkdtempSync(join(tmpdir(), 'pbx-queue-ttl-')), 'release');
    const blockers = Array.from({ length: 3 }, (_, i) =>
      t.call(`${DIAG}:sleep?until=${encodeURIComponent(release)}&tag=block${i}`),
    );
    const { queue } = t.server.services;
    const ranBlockers = () => [0, 1, 2].filter((i) => ranCount(t, `sleep:block${i}`) > 0).length;
    await waitUntil('3 blockers running', () => queue.threads === 3 && queue.waiting === 0 && ranBlockers() === 3);
    const behind = Promise.all([
      t.call(`${DIAG}:sleep?ms=1&tag=stale`),
      t.call(`${DIAG}:sleep?ms=1&tag=debug`, { headers: { 'x-pbx-debug': '1' } }),
    ]);
    try {
      await waitUntil('both requests waiting', () => queue.waiting === 2);
      await new Promise((r) => setTimeout(r, 1100)); // a lower bound: a slow machine only makes them older
    } finally {
      writeFileSync(release, '');
    }
    const [stale, debug] = await behind;
    await Promise.all(blockers);
    assert.equal(stale.status, 504);
    assert.match(stale.json.messages.error[0], /APIRequestTTL/);
    assert.equal((await t.call(`${DIAG}:runs?tag=sleep:stale`)).json.data.count, 0, 'the expired job never ran');
    assert.equal(debug.status, 200, 'debug requests are exempt from the TTL');
    await t.call('/pbxcore/api/v3/general-settings', { method: 'PATCH', body: { APIRequestTTL: 35 } });
  });

  it('retries a failing job and succeeds on the third attempt', async () => {
    const res = await t.call(`${DIAG}:flaky?tag=twice&failures=2`, { method: 'POST', body: {} });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.attempts, 3);
  });

  it('parks a job that fails 3 times and reports it', async () => {
    const res = await t.call(`${DIAG}:flaky?tag=always&failures=99`, { method: 'POST', body: {} });
    assert.equal(res.status, 500);
    assert.equal(res.json.function, 'flaky');
    assert.match(res.json.messages.error[0], /failed 3 times/);
    assert.equal((await t.call(`${DIAG}:runs?tag=flaky:always`)).json.data.count, 3);
    const parked = t.server.services.db
      .prepare("SELECT attempts, error FROM failed_jobs WHERE target LIKE '%flaky%'")
      .all() as Array<{ attempts: number; error: string }>;
    assert.equal(parked.length, 1);
    assert.equal(parked[0]!.attempts, 3);
  });

  it('replaces a worker that dies; the request gets an error envelope and the server keeps serving', async () => {
    const crashed = await t.call(`${DIAG}:crash`, { method: 'POST', body: {} });
    assert.equal(crashed.status, 500);
    assert.equal(crashed.json.result, false);
    const after = await Promise.all(Array.from({ length: 3 }, (_, i) => t.call(`${DIAG}:sleep?ms=200&tag=after${i}`)));
    assert.deepEqual(
      after.map((r) => r.status),
      [200, 200, 200],
    );
    assert.equal(new Set(after.map((r) => r.json.pid)).size, 3, 'the pool is back to three workers');
  });

  it('hands compressed results over 1 MB to the client as gzip, or inflated when gzip is not accepted', async () => {
    const gz = await rawGet(`${t.url}${DIAG}:big?kb=1500`, { 'accept-encoding': 'gzip' });
    assert.equal(gz.status, 200);
    assert.equal(gz.headers['content-encoding'], 'gzip');
    const inflated = JSON.parse(gunzipSync(gz.body).toString());
    assert.equal(inflated.data.blob.length, 1500 * 1024);
    const plain = await rawGet(`${t.url}${DIAG}:big?kb=1500`, { 'accept-encoding': 'identity' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(plain.body.toString()).meta.hash, inflated.meta.hash);
  });

  it('forwards only the allowed headers to the worker, truncated, and no session context on localhost', async () => {
    const res = await t.call(`${DIAG}:echo`, {
      headers: {
        'user-agent': 'u'.repeat(3000),
        'x-pbx-trace': 'abc',
        'x-module-demo-flag': '1',
        cookie: 'sid=secret',
        'authentication-token': 'secret',
        'x-other': 'dropped',
      },
    });
    assert.equal(res.status, 200);
    const { headers, session } = res.json.data;
    assert.equal(headers['user-agent'].length, 1024);
    assert.equal(headers['x-pbx-trace'], 'abc');
    assert.equal(headers['x-module-demo-flag'], '1');
    for (const name of ['cookie', 'authentication-token', 'x-other', 'authorization', 'x-api-key'])
      assert.equal(name in headers, false, name);
    assert.equal(session, null);
  });
});
