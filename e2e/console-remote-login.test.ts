// Flow 5 of the console: reached through a TCP relay that connects from 127.0.0.2, the browser is a
// remote client: it must sign in, then works, resumes its session after a reload, and signs out.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, SCREENSHOTS, TAKE_SCREENSHOTS, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { LoginScreen } from './pages/login.ts';
import { SettingsScreen } from './pages/settings.ts';
import { eventually, visible } from './support/page-helpers.ts';
import { startTcpRelay, type TcpRelay } from './support/tcp-relay.ts';

const PASSWORD = 'remote-e2e-password';
const NEW_PASSWORD = 'changed-remotely-42';

describe('console: remote sign-in through a relay from 127.0.0.2', () => {
  let server: TestServer;
  let relay: TcpRelay;
  let browser: ConsoleBrowser;
  const login = new LoginScreen({
    get page() {
      return browser.page;
    },
  });
  const settings = new SettingsScreen(login);

  before(async () => {
    server = await startConsoleServer({ adminPassword: PASSWORD });
    relay = await startTcpRelay(server.server.port, '127.0.0.2');
    browser = await launchConsoleBrowser();
    // A controllable clock in the page, to reach the token's renewal time without waiting 12 minutes.
    await browser.page.clock.install();
  });

  after(async () => {
    await browser?.close();
    await relay?.close();
    await server?.close();
  });

  it('asks a remote browser to sign in, refuses a wrong password, and works after signing in', async () => {
    const { page } = browser;
    // The API itself refuses the relay's anonymous requests: the bypass is for loopback only.
    const direct = await server.remote('/pbxcore/api/v3/system:getInfo');
    assert.equal(direct.status, 401);

    await page.goto(`${relay.url}/api-keys`);
    await visible(login.signInHeading);
    await browser.screenshot('login');
    await login.signIn('not-the-password');
    await login.see('Invalid login or password.');

    // Keyboard only: Enter in the password field signs in.
    await login.signInWithEnter(PASSWORD);
    await visible(login.heading('API keys'));
    await eventually(
      () => login.signedInAs.innerText(),
      (t) => /admin/.test(t),
      'the signed-in user in the header',
    );
    await login.see('No API keys');
    await login.open('Dashboard');
    await visible(login.byTestId('server-addresses'));
    await browser.screenshot('dashboard-remote');
  });

  it('renews its access token on its own before it expires', async () => {
    const { page } = browser;
    const renewal = page.waitForResponse(
      (r) => r.url().endsWith('/pbxcore/api/v3/auth:refresh') && r.request().method() === 'POST',
    );
    await page.clock.fastForward('13:00'); // past 80% of the 900 s token lifetime
    const response = await renewal;
    assert.equal(response.status(), 200);
    assert.match((await response.json()).data.accessToken, /^ey/);
    await login.open('API keys');
    await login.see('No API keys');
    assert.equal(await login.signInHeading.count(), 0);
  });

  it('resumes the session from the refresh cookie after a reload, without the password', async () => {
    const { page } = browser;
    await page.reload();
    await visible(login.heading('API keys'));
    await visible(login.signedInAs);
    assert.equal(await login.signInHeading.count(), 0);
  });

  it('changes the admin password from the remote console, which needs the current one', async () => {
    await settings.show();
    const form = await settings.form('Administrator password');
    await form.field('Current password').fill('not-the-current-one');
    await form.field('New password', true).fill(NEW_PASSWORD);
    await form.field('Repeat the new password').fill(NEW_PASSWORD);
    await form.save('Change password');
    await form.see('Is not correct.');
    await form.field('Current password').fill(PASSWORD);
    await form.save('Change password');
    await settings.see('Password saved');
    await browser.screenshot('settings-remote');
  });

  it('signs out: back to the login screen, and a reload does not bring the session back', async () => {
    const { page } = browser;
    await login.signOut.click();
    await visible(login.signInHeading);
    await login.see('You are signed out.');
    await page.reload();
    await visible(login.signInHeading);
    assert.equal(await login.signedInAs.count(), 0);

    // The new password is the one that works now.
    await login.signIn(PASSWORD);
    await login.see('Invalid login or password.');
    await login.signIn(NEW_PASSWORD);
    await visible(login.signedInAs);
  });

  it('when its own address is banned, the failing polls show one toast, away from Sign out', async () => {
    const { page } = browser;
    await login.open('Dashboard');
    assert.equal(
      (await server.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { maxretry: 1 } })).status,
      200,
    );
    // One more wrong password from the relay's address bans it: every request of this console now gets 403.
    assert.equal(
      (
        await server.remote('/pbxcore/api/v3/auth:login', {
          method: 'POST',
          body: { login: 'admin', password: 'wrong-again' },
        })
      ).status,
      401,
    );
    const toasts = login.toasts();
    await visible(toasts.filter({ hasText: 'Your address is banned' }));
    // The dashboard polls every 5 seconds: the same failure again and again, shown once. The page records the
    // most toasts ever shown at once while one polled address fails twice more (counted, not timed).
    await page.evaluate(() => {
      const w = globalThis as unknown as Record<string, unknown> & {
        document: { body: unknown; querySelectorAll(s: string): { length: number } };
        MutationObserver: new (cb: () => void) => { observe(n: unknown, o: unknown): void };
      };
      w.maxToasts = w.document.querySelectorAll('.mantine-Notification-root').length;
      new w.MutationObserver(() => {
        const now = w.document.querySelectorAll('.mantine-Notification-root').length;
        if (now > (w.maxToasts as number)) w.maxToasts = now;
      }).observe(w.document.body, { childList: true, subtree: true });
    });
    const refused = new Map<string, number>();
    const onResponse = (response: { status(): number; url(): string }) => {
      if (response.status() === 403) refused.set(response.url(), (refused.get(response.url()) ?? 0) + 1);
    };
    page.on('response', onResponse);
    await eventually(
      async () => Math.max(0, ...refused.values()),
      (n) => n >= 2,
      'two more failing polls',
      30_000,
    );
    page.off('response', onResponse);
    const most = await page.evaluate(() => (globalThis as unknown as { maxToasts: number }).maxToasts);
    assert.ok(most <= 1, `at most one toast at a time, saw ${most} at once`);
    await eventually(
      () => toasts.count(),
      (n) => n === 1,
      'the toast of the next failing poll',
    );
    const box = await toasts.first().boundingBox();
    assert.ok(
      box && box.y > 900 / 2,
      `the toast sits at the bottom of the window, not over the header (${JSON.stringify(box)})`,
    );
    // Nothing covers Sign out: a trial click checks that the button itself would receive it.
    await login.signOut.click({ trial: true });
    // (The toast as it shows, not the full page: this screenshot is the viewport.)
    if (TAKE_SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'remote-banned-toast.png') });
  });
});
