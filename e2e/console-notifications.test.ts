// Issue 5/6 in the console: the Notifications page. The operator adds a webhook channel (a bad URL
// is refused under its field), sends a test and sees its result, adds a rule (checks, severity,
// digest), and a health change reaches the receiver. Checked with axe (no serious or critical
// violation) and for sideways overflow at 1440 and 390 px, on a touch screen (selects are tapped).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { seriousViolations } from './support/axe.ts';
import { startHttpReceiver, type HttpReceiver } from '../src-server/test-support/notification-receivers.ts';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const SECRET = 'e2e-webhook-secret';

describe('console: notifications', { timeout: 180_000 }, () => {
  let receiver: HttpReceiver;
  const app = useConsole({
    hasTouch: true,
    prepare: async () => {
      receiver = await startHttpReceiver();
    },
    cleanup: () => receiver?.close(),
  });
  const { notifications: screen } = app.screens;

  /** axe and sideways overflow at `width`, once transitions have ended. */
  async function checkAt(width: number, what: string) {
    const { page } = app;
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { getAnimations(): Array<{ playState: string }> } }).document
          .getAnimations()
          .every((animation) => animation.playState !== 'running'),
      undefined,
      { timeout: 5000 },
    );
    assert.deepEqual(await seriousViolations(page), [], `${what} at ${width} px`);
    const wide = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(wide <= width, `${what} at ${width} px is ${wide} px wide`);
    await app.browser.screenshot(`notifications-${what.replace(/\W+/g, '-')}-${width}`);
  }

  it('adds a channel, sends a test, adds a rule, and a health change reaches the receiver', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1440, height: 900 });
    await app.open();
    await screen.show();
    await screen.see('No channels');
    await checkAt(1440, 'empty');
    await checkAt(390, 'empty');
    await page.setViewportSize({ width: 1440, height: 900 });

    const dialog = await screen.pressForDialog('New channel', 'New notification channel');
    await screen.field(dialog, 'Name').fill('Ops hook');
    await screen.pick(dialog, 'Sends by', 'Webhook', true);
    await screen.field(dialog, 'URL').fill('ftp://nowhere.example/');
    await screen.field(dialog, 'Signing secret').fill(SECRET);
    await dialog.getByRole('button', { name: 'Add channel' }).click();
    await visible(dialog.locator('.mantine-InputWrapper-error', { hasText: 'Must be an http:// or https:// URL' }));
    await screen.settled();
    await checkAt(1440, 'channel dialog');
    await screen.field(dialog, 'URL').fill(`${receiver.url}/hook`);
    await dialog.getByRole('button', { name: 'Add channel' }).click();
    await screen.dialogsClosed();
    await visible(screen.channel('Ops hook'));
    assert.match(await screen.channel('Ops hook').innerText(), /Nothing sent yet/);

    await screen.rowAction('Ops hook', 'Send a test');
    await receiver.waitFor(1);
    const test = receiver.requests[0]!;
    assert.equal(
      test.headers['x-pbx-signature'],
      `sha256=${createHmac('sha256', SECRET).update(test.body).digest('hex')}`,
    );
    assert.equal(JSON.parse(test.body).test, true);
    await eventually(
      () => screen.lastResult('Ops hook'),
      (text) => /Delivered \(test\)/i.test(text),
      'the test delivered',
    );

    const rule = await screen.pressForDialog('New rule', 'New notification rule');
    await screen.field(rule, 'Name').fill('On call');
    await screen.pick(rule, 'Checks', 'A bouncer stopped polling', true);
    await page.keyboard.press('Escape');
    await screen.pick(rule, 'Minimum severity', 'Critical only', true);
    await screen.field(rule, 'Digest').fill('15');
    await screen.settled();
    await checkAt(1440, 'rule dialog');
    await rule.getByRole('button', { name: 'Add rule' }).click();
    await screen.dialogsClosed();
    const row = await visible(screen.rule('On call'));
    assert.match(await row.innerText(), /A bouncer stopped polling/i);
    assert.match(await row.innerText(), /Critical only/);
    assert.match(await row.innerText(), /At most one message per 15 min, recoveries too/);

    app.server.server.services.bus.emit({
      type: 'health-changed',
      check: {
        id: 'bouncer-silent:1',
        kind: 'bouncer-silent',
        state: 'failing',
        severity: 'critical',
        title: 'fw1 has not polled for 42 min',
        since: new Date().toISOString(),
      },
    });
    await receiver.waitFor(2);
    assert.match(JSON.parse(receiver.requests[1]!.body).subject, /Critical: fw1 has not polled for 42 min$/);
    await checkAt(1440, 'page');

    await checkAt(390, 'page');
    const card = screen.channel('Ops hook');
    await card.getByRole('button', { name: 'Send a test Ops hook' }).tap();
    await receiver.waitFor(3);
    assert.equal(JSON.parse(receiver.requests[2]!.body).test, true);
  });
});
