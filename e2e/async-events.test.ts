// Asynchronous requests seen by a real browser: EventSource on the push channel (cookie-less,
// loopback), and a fetch() stream carrying a Bearer API key (EventSource cannot send headers).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';

describe('browser: async requests over Server-Sent Events', () => {
  let server: TestServer;
  let browser: ConsoleBrowser;

  before(async () => {
    server = await startTestServer({ exampleModules: true });
    browser = await launchConsoleBrowser();
    // Any page of the server gives the scripts below its origin.
    await browser.page.goto(`${server.url}/pbxcore/api/v3/system:ping`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('EventSource receives the finished envelope of an X-Async-Channel request', async () => {
    const outcome = await browser.page.evaluate(async () => {
      const source = new EventSource('/pbxcore/api/v3/events?channel=browser');
      await new Promise<void>((resolve) => source.addEventListener('ready', () => resolve(), { once: true }));
      const result = new Promise<{ id: string; data: string }>((resolve) =>
        source.addEventListener(
          'result',
          (e) => resolve({ id: (e as MessageEvent).lastEventId, data: (e as MessageEvent).data as string }),
          { once: true },
        ),
      );
      const accepted = await fetch('/pbxcore/api/v3/module-example-tasks/tasks', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Async-Channel': 'browser' },
        body: JSON.stringify({ title: 'from the browser' }),
      });
      const immediate = (await accepted.json()) as { data: { jobId: string } };
      const event = await result;
      source.close();
      return { status: accepted.status, jobId: immediate.data.jobId, event };
    });
    assert.equal(outcome.status, 200);
    assert.equal(outcome.event.id, outcome.jobId);
    const payload = JSON.parse(outcome.event.data);
    assert.equal(payload.status, 201);
    assert.equal(payload.envelope.data.title, 'from the browser');
  });

  it('a fetch() stream with a Bearer API key receives its own results', async () => {
    const created = await server.call('/pbxcore/api/v3/api-keys', {
      method: 'POST',
      body: { description: 'browser stream', full_permissions: true },
    });
    assert.equal(created.status, 201, created.text);
    const key = created.json.data.key as string;
    const outcome = await browser.page.evaluate(async (apiKey) => {
      const auth = { Authorization: `Bearer ${apiKey}` };
      const controller = new AbortController();
      const response = await fetch('/pbxcore/api/v3/events?channel=keyed', {
        headers: auth,
        signal: controller.signal,
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      // No named helpers in here: the test runner's transpiler would wrap them in a __name() the page lacks.
      let buffer = '';
      let jobId = '';
      let block = '';
      while (!block) {
        const end = buffer.indexOf('\n\n');
        if (end === -1) {
          const { value, done } = await reader.read();
          if (done) throw new Error('stream ended');
          buffer += value;
          continue;
        }
        const current = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (current.includes('event: ready')) {
          const accepted = await fetch('/pbxcore/api/v3/system:getInfo', {
            headers: { ...auth, 'X-Async-Channel': 'keyed' },
          });
          jobId = ((await accepted.json()) as { data: { jobId: string } }).data.jobId;
        } else if (current.includes('event: result')) block = current;
      }
      controller.abort();
      return { type: response.headers.get('content-type'), jobId, block };
    }, key);
    assert.equal(outcome.type, 'text/event-stream; charset=utf-8');
    assert.match(outcome.block, new RegExp(`^id: ${outcome.jobId}$`, 'm'));
    const data = JSON.parse(/^data: (.*)$/m.exec(outcome.block)![1]!);
    assert.equal(data.envelope.function, 'getInfo');
  });
});
