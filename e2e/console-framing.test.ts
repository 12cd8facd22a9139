// The console cannot be framed (issue 19, clickjacking): a page served from another origin (another
// loopback port) that frames the console shows nothing in the frame, in real Chromium. The same
// console opened directly works under its Content-Security-Policy, with no violation reported.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

describe('console: framing is refused, the policy does not break the console', () => {
  let attacker: Server | undefined;
  let attackerUrl = '';
  const app = useConsole({
    server: { adminPassword: undefined },
    prepare: async (server) => {
      // The framing page: another origin on this machine, as a web page opened in the technician's browser would be.
      const framing = createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><title>Win a prize</title><h1>Click the button</h1><iframe id="console" ` +
            `src="${server.url}/" width="1200" height="800"></iframe>`,
        );
      });
      attacker = framing;
      await new Promise<void>((resolve) => framing.listen(0, '127.0.0.1', resolve));
      attackerUrl = `http://127.0.0.1:${(framing.address() as AddressInfo).port}/`;
    },
  });
  // After the browser, whose connections to it would keep it open.
  after(() => new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve())));
  const { dashboard } = app.screens;

  it('opened directly, the console draws its dashboard and reports no policy violation', async () => {
    const { server, page } = app;
    const violations: string[] = [];
    const onMessage = (message: { type(): string; text(): string }) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    };
    page.on('console', onMessage);
    try {
      const answer = await page.goto(`${server.url}/`);
      assert.equal(answer?.status(), 200);
      assert.match((await answer!.allHeaders())['content-security-policy'] ?? '', /frame-ancestors 'none'/);
      await visible(dashboard.heading('Dashboard', true));
      await dashboard.see('Bouncer api_url');
      assert.deepEqual(violations, []);
    } finally {
      page.off('console', onMessage);
    }
  });

  it('framed by a page on another origin, the frame shows nothing of the console', async () => {
    const { server, browser } = app;
    const page = await browser.context.newPage();
    try {
      const refusals: string[] = [];
      page.on('console', (message) => {
        if (/frame-ancestors|X-Frame-Options|Refused to (display|frame)/i.test(message.text()))
          refusals.push(message.text());
      });
      await page.goto(attackerUrl);
      await visible(page.getByRole('heading', { name: 'Click the button' }));
      // Chromium reports the refusal once it has decided on the frame's answer: judge the frame after that.
      await eventually(
        async () => refusals.length,
        (n) => n > 0,
        'Chromium to report the refusal',
      );
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.ok(frame, 'the iframe exists');
      assert.ok(!frame.url().startsWith(server.url), `the console did not load in the frame (frame at ${frame.url()})`);
      assert.equal(
        await page.frameLocator('#console').getByRole('heading', { name: 'Dashboard' }).count(),
        0,
        'no console heading in the frame',
      );
      assert.equal(await page.frameLocator('#console').getByText('Bouncer api_url').count(), 0);
      assert.ok(refusals.length > 0, 'Chromium reports the refusal');
      await browser.screenshot('console-framing-refused', page);
    } finally {
      await page.close();
    }
  });
});
