import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import { DIAGNOSTICS_MODULE, useTestServer } from '../test-support/server.ts';
import { RESULT_LIFETIME_MS } from './result-store.ts';

const EVENTS = '/pbxcore/api/v3/events';

interface ServerSentEvent {
  id?: string;
  event?: string;
  data: string;
}

/** A Server-Sent Events client over a real socket: `next()` resolves with the next event matching a test. */
function openEventStream(url: string, headers: Record<string, string> = {}, localAddress?: string) {
  const events: ServerSentEvent[] = [];
  const waiters: Array<{ test: (e: ServerSentEvent) => boolean; resolve: (e: ServerSentEvent) => void }> = [];
  let buffer = '';
  let req: ClientRequest;
  const response = new Promise<{ status: number; type: string }>((resolve, reject) => {
    req = httpRequest(
      url,
      { headers: { Accept: 'text/event-stream', ...headers }, localAddress, agent: false },
      (res) => {
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']) });
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event: ServerSentEvent = { data: '' };
            for (const line of block.split('\n')) {
              const [field, ...rest] = line.split(': ');
              const value = rest.join(': ');
              if (field === 'id') event.id = value;
              else if (field === 'event') event.event = value;
              else if (field === 'data') event.data += value;
            }
            if (!event.event && !event.data) continue; // comments and retry hints
            const waiter = waiters.find((w) => w.test(event));
            if (waiter) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            } else events.push(event);
          }
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject);
    req.end();
  });
  return {
    response,
    next(test: (e: ServerSentEvent) => boolean = () => true): Promise<ServerSentEvent> {
      const queued = events.find(test);
      if (queued) {
        events.splice(events.indexOf(queued), 1);
        return Promise.resolve(queued);
      }
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    close: () => req.destroy(),
  };
}

describe('asynchronous requests', () => {
  const clock = new ManualClock(Date.now());

  const server = useTestServer({ clock, resourceModules: [DIAGNOSTICS_MODULE] });

  /** Sends `path` as an async job on `channel` and fetches its result until it is no longer running (202). */
  const runAsyncJob = async (path: string, channel: string) => {
    const accepted = await server.call(path, { headers: { 'X-Async-Channel': channel } });
    const { jobId } = accepted.json.data as { jobId: string };
    let fetched = await server.call(`${EVENTS}?channel=${channel}&jobId=${jobId}`);
    while (fetched.status === 202) fetched = await server.call(`${EVENTS}?channel=${channel}&jobId=${jobId}`);
    return { jobId, fetched };
  };

  it('answers 200 at once with {jobId, channel} and pushes the finished envelope over SSE', async () => {
    const stream = openEventStream(`${server.url}${EVENTS}?channel=ops`);
    try {
      assert.deepEqual(await stream.response, { status: 200, type: 'text/event-stream; charset=utf-8' });
      assert.deepEqual(JSON.parse((await stream.next((e) => e.event === 'ready')).data), { channel: 'ops' });

      const accepted = await server.call('/pbxcore/api/v3/extensions', {
        method: 'POST',
        headers: { 'X-Async-Channel': 'ops' },
        body: { number: '201', username: 'Async Alice', secret: 'secret-201' },
      });
      assert.equal(accepted.status, 200);
      assert.equal(accepted.json.result, true);
      assert.equal(accepted.json.data.channel, 'ops');
      const { jobId } = accepted.json.data as { jobId: string };
      assert.match(jobId, /^[0-9a-f-]{36}$/);

      const event = await stream.next((e) => e.id === jobId);
      assert.equal(event.event, 'result');
      const payload = JSON.parse(event.data);
      assert.equal(payload.jobId, jobId);
      assert.equal(payload.status, 201);
      assert.equal(payload.envelope.data.number, '201');
      assert.equal(payload.envelope.function, 'create');
      assert.equal((await server.call('/pbxcore/api/v3/extensions/201')).status, 200, 'the write happened');

      // Stored for later retrieval with the status the synchronous request would have had.
      const fetched = await server.call(`${EVENTS}?channel=ops&jobId=${jobId}`);
      assert.equal(fetched.status, 201);
      assert.deepEqual(fetched.json, payload.envelope);
      assert.equal(
        (await server.call(`${EVENTS}?channel=other&jobId=${jobId}`)).status,
        404,
        'only on its own channel',
      );
    } finally {
      stream.close();
    }
  });

  it('keeps a result nobody was listening for and replays it to the first subscriber', async () => {
    // Wait for the result by fetching it, then subscribe: the missed event is replayed once.
    const { jobId, fetched } = await runAsyncJob('/pbxcore/api/v3/system:getInfo', 'late');
    assert.equal(fetched.status, 200);
    const stream = openEventStream(`${server.url}${EVENTS}?channel=late`);
    try {
      const event = await stream.next((e) => e.event === 'result');
      assert.equal(event.id, jobId);
      assert.equal(JSON.parse(event.data).envelope.function, 'getInfo');
    } finally {
      stream.close();
    }
  });

  it('reports a running job as 202 and the finished one afterwards', async () => {
    const accepted = await server.call('/pbxcore/api/v3/diagnostics:sleep?ms=400&tag=async', {
      headers: { 'X-Async-Channel': 'slow' },
    });
    assert.equal(accepted.status, 200);
    const { jobId } = accepted.json.data as { jobId: string };
    const pending = await server.call(`${EVENTS}?channel=slow&jobId=${jobId}`);
    assert.equal(pending.status, 202);
    assert.deepEqual(pending.json.data, { jobId, channel: 'slow', state: 'pending' });
    const stream = openEventStream(`${server.url}${EVENTS}?channel=slow`);
    try {
      const event = await stream.next((e) => e.id === jobId);
      assert.deepEqual(JSON.parse(event.data).envelope.data, { slept: 400 });
    } finally {
      stream.close();
    }
    assert.equal((await server.call(`${EVENTS}?channel=slow&jobId=${jobId}`)).status, 200);
  });

  it('delivers results larger than 1 MB (gzipped between threads) inflated', async () => {
    const accepted = await server.call('/pbxcore/api/v3/diagnostics:big?kb=1500', {
      headers: { 'X-Async-Channel': 'big' },
    });
    const { jobId } = accepted.json.data as { jobId: string };
    const stream = openEventStream(`${server.url}${EVENTS}?channel=big`);
    try {
      const event = await stream.next((e) => e.id === jobId);
      assert.equal(JSON.parse(event.data).envelope.data.blob.length, 1500 * 1024);
    } finally {
      stream.close();
    }
    const fetched = await server.call(`${EVENTS}?channel=big&jobId=${jobId}`);
    assert.equal(fetched.json.data.blob.length, 1500 * 1024);
  });

  it('forgets a result after 120 s', async () => {
    const { jobId, fetched } = await runAsyncJob('/pbxcore/api/v3/system:ping', 'expiry');
    assert.equal(fetched.status, 200);
    clock.advance(RESULT_LIFETIME_MS - 1);
    assert.equal(
      (await server.call(`${EVENTS}?channel=expiry&jobId=${jobId}`)).status,
      200,
      'still there just before 120 s',
    );
    clock.advance(1);
    const expired = await server.call(`${EVENTS}?channel=expiry&jobId=${jobId}`);
    assert.equal(expired.status, 404);
    assert.match(expired.json.messages.error[0], /kept 120 s/);
  });

  it('exempts async jobs from the request TTL', async () => {
    await server.call('/pbxcore/api/v3/general-settings', { method: 'PATCH', body: { APIRequestTTL: 1 } });
    try {
      // Three slow jobs hold every worker, so the next two wait longer than the 1 s TTL. They are sent on
      // only once all three run (three threads, none waiting): the third may wait for its thread to start.
      const blockers = Array.from({ length: 3 }, (_, i) =>
        server.call(`/pbxcore/api/v3/diagnostics:sleep?ms=4000&tag=ttl${i}`),
      );
      const queue = server.server.services.queue;
      while (queue.threads < 3 || queue.waiting > 0) await new Promise((r) => setTimeout(r, 10));
      const syncPending = server.call('/pbxcore/api/v3/system:getInfo');
      const accepted = await server.call('/pbxcore/api/v3/system:getInfo', { headers: { 'X-Async-Channel': 'ttl' } });
      const { jobId } = accepted.json.data as { jobId: string };
      assert.equal((await syncPending).status, 504, 'a synchronous job this old is dropped');
      await Promise.all(blockers);
      let fetched = await server.call(`${EVENTS}?channel=ttl&jobId=${jobId}`);
      while (fetched.status === 202) fetched = await server.call(`${EVENTS}?channel=ttl&jobId=${jobId}`);
      assert.equal(fetched.status, 200);
      assert.equal(fetched.json.function, 'getInfo');
    } finally {
      await server.call('/pbxcore/api/v3/general-settings', { method: 'PATCH', body: { APIRequestTTL: 35 } });
    }
  });

  it('applies the same auth rules and rejects malformed channel names', async () => {
    assert.equal(
      (await server.remote('/pbxcore/api/v3/system:getInfo', { headers: { 'X-Async-Channel': 'x' } })).status,
      401,
    );
    assert.equal((await server.remote(`${EVENTS}?channel=ops`)).status, 401);
    const stream = openEventStream(`${server.url}${EVENTS}?channel=ops`, {}, '127.0.0.2');
    assert.equal((await stream.response).status, 401);
    stream.close();
    assert.equal(
      (await server.call('/pbxcore/api/v3/system:getInfo', { headers: { 'X-Async-Channel': 'bad name!' } })).status,
      400,
    );
    assert.equal((await server.call(EVENTS)).status, 400, 'channel is required');
    assert.equal((await server.call(`${EVENTS}?channel=${'x'.repeat(200)}`)).status, 400);
    assert.equal((await server.call(`${EVENTS}?channel=none&jobId=unknown`)).status, 404);
  });

  it('shows a Bearer caller only its own jobs; loopback sees all', async () => {
    const keyFor = async (description: string) => {
      const res = await server.call('/pbxcore/api/v3/api-keys', {
        method: 'POST',
        body: { description, full_permissions: true },
      });
      assert.equal(res.status, 201, res.text);
      return { Authorization: `Bearer ${res.json.data.key}` };
    };
    const alice = await keyFor('alice');
    const bob = await keyFor('bob');
    const accepted = await server.remote('/pbxcore/api/v3/system:getInfo', {
      headers: { ...alice, 'X-Async-Channel': 'shared' },
    });
    assert.equal(accepted.status, 200, accepted.text);
    const { jobId } = accepted.json.data as { jobId: string };
    const url = `${EVENTS}?channel=shared&jobId=${jobId}`;
    let own = await server.remote(url, { headers: alice });
    while (own.status === 202) own = await server.remote(url, { headers: alice });
    assert.equal(own.status, 200);
    assert.equal((await server.remote(url, { headers: bob })).status, 404);
    assert.equal((await server.call(url)).status, 200);

    const stream = openEventStream(`${server.url}${EVENTS}?channel=shared`, bob, '127.0.0.2');
    try {
      assert.equal((await stream.response).status, 200);
      await stream.next((e) => e.event === 'ready');
      const mine = await server.remote('/pbxcore/api/v3/system:ping', {
        headers: { ...bob, 'X-Async-Channel': 'shared' },
      });
      const event = await stream.next((e) => e.event === 'result');
      assert.equal(event.id, mine.json.data.jobId, "bob's stream carries bob's job, not alice's earlier one");
    } finally {
      stream.close();
    }
  });
});
