// Flow 5 of the console: reached through a TCP relay that connects from 127.0.0.2, the browser is a
// remote client: it must sign in, then works, resumes its session after a reload, and signs out.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { eventually, openScreen, visible } from './support/page-helpers.ts';
import { startTcpRelay, type TcpRelay } from './support/tcp-relay.ts';

const PASSWORD = 'remote-e2e-password';
const NEW_PASSWORD = 'changed-remotely-42';

describe('console: remote sign-in through a relay from 127.0.0.2', () => {
  let server: TestServer;
  let relay: TcpRelay;
  let browser: ConsoleBrowser;

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
    await visible(page.getByRole('heading', { name: 'Sign in to PBX Console' }));
    await browser.screenshot('login');
    await page.getByRole('textbox', { name: 'Password' }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByText('Invalid login or password.'));

    // Keyboard only: Enter in the password field signs in.
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('textbox', { name: 'Password' }).press('Enter');
    await visible(page.getByRole('heading', { level: 1, name: 'API keys' }));
    await eventually(
      () => page.getByTestId('signed-in-as').innerText(),
      (t) => /admin/.test(t),
      'the signed-in user in the header',
    );
    await visible(page.getByText('No API keys'));
    await openScreen(page, 'Dashboard');
    await visible(page.getByTestId('server-addresses'));
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
    await openScreen(page, 'API keys');
    await visible(page.getByText('No API keys'));
    assert.equal(await page.getByRole('heading', { name: 'Sign in to PBX Console' }).count(), 0);
  });

  it('resumes the session from the refresh cookie after a reload, without the password', async () => {
    const { page } = browser;
    await page.reload();
    await visible(page.getByRole('heading', { level: 1, name: 'API keys' }));
    await visible(page.getByTestId('signed-in-as'));
    assert.equal(await page.getByRole('heading', { name: 'Sign in to PBX Console' }).count(), 0);
  });

  it('changes the admin password from the remote console, which needs the current one', async () => {
    const { page } = browser;
    await openScreen(page, 'Settings');
    const form = page.getByRole('form', { name: 'Administrator password' });
    await form.getByRole('textbox', { name: 'Current password' }).fill('not-the-current-one');
    await form.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
    await form.getByRole('textbox', { name: 'Repeat the new password' }).fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await visible(form.getByText('Is not correct.'));
    await form.getByRole('textbox', { name: 'Current password' }).fill(PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await visible(page.getByText('Password saved'));
    await browser.screenshot('settings-remote');
  });

  it('signs out: back to the login screen, and a reload does not bring the session back', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await visible(page.getByRole('heading', { name: 'Sign in to PBX Console' }));
    await visible(page.getByText('You are signed out.'));
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Sign in to PBX Console' }));
    assert.equal(await page.getByTestId('signed-in-as').count(), 0);

    // The new password is the one that works now.
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByText('Invalid login or password.'));
    await page.getByRole('textbox', { name: 'Password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByTestId('signed-in-as'));
  });

  it('when its own address is banned, the failing polls show one toast, away from Sign out', async () => {
    const { page } = browser;
    await openScreen(page, 'Dashboard');
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
    const toasts = page.locator('.mantine-Notification-root');
    await visible(toasts.filter({ hasText: 'Your address is banned' }));
    // The dashboard polls every 5 seconds: the same failure again and again, shown once.
    const seen: number[] = [];
    for (let i = 0; i < 12; i++) {
      seen.push(await toasts.count());
      await page.waitForTimeout(1000);
    }
    assert.ok(Math.max(...seen) <= 1, `at most one toast at a time, saw ${JSON.stringify(seen)}`);
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
    await page.getByRole('button', { name: 'Sign out' }).click({ trial: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'remote-banned-toast.png') });
  });
});
