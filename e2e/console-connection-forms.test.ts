// Connection state and forms (issue 22, items 7 and 8): one banner with the last contact when the
// server stops answering, on a page that does not poll too, and the header badge follows; one guard
// before leaving unsaved edits; a duration error in the units of its hint; one date format.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { openScreen, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
/** "2026-11-25 10:03:24 UTC": date, 24-hour time, zone. */
const ONE_DATE_FORMAT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [A-Z]{2,5}([+-]\d{1,2}(:\d{2})?)?$/;

describe('console: connection state and forms', () => {
  let server: TestServer;
  let browser: ConsoleBrowser;

  before(async () => {
    server = await startConsoleServer({ adminPassword: 'e2e-admin-password' });
    browser = await launchConsoleBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it(
    'says once, app-wide, that the server is unreachable and since when, even on a page that ' +
      'does not poll; recovers by itself',
    async () => {
      const { page } = browser;
      await page.goto(`${server.url}/settings`);
      await visible(page.getByRole('form', { name: 'Ban rules' }));
      await visible(page.getByText('Local', { exact: true }));
      assert.equal(await page.getByTestId('connection-banner').count(), 0);

      await server.server.stop();
      await page.getByTestId('connection-banner').waitFor({ state: 'visible', timeout: 20_000 });
      const banner = page.getByTestId('connection-banner');
      const text = await banner.innerText();
      assert.match(text, /The server cannot be reached/);
      assert.match(text, /Last contact at \d{2}:\d{2}:\d{2} [A-Z]/);
      assert.match(text, /may be out of date/);
      await visible(page.getByTestId('offline-badge'));
      assert.equal(await page.getByText('Local', { exact: true }).count(), 0, 'the Local badge does not stay green');
      assert.equal(
        await page.locator('.mantine-Notification-root').filter({ hasText: 'cannot be reached' }).count(),
        0,
        'no toast besides the banner',
      );
      await browser.screenshot('connection-lost');

      await server.restart();
      await page.getByTestId('connection-banner').waitFor({ state: 'detached', timeout: 20_000 });
      await visible(page.getByText('Local', { exact: true }));
    },
  );

  it('asks before leaving unsaved edits, and a refused duration reads in the units of its hint', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/settings`);
    const rules = await visible(page.getByRole('form', { name: 'Ban rules' }));
    // Over the longest ban (365 days): refused by the server, in days like the hint.
    await rules.getByRole('textbox', { name: 'Ban duration' }).fill('400');
    await rules.getByRole('combobox', { name: 'Unit of ban duration' }).selectOption('d');

    // Leaving: the guard asks; "stay" keeps the page and the typed value.
    const dismissed = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => void dialog.dismiss().then(() => resolve(dialog.message()))),
    );
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard' }).click();
    assert.match(await dismissed, /not saved/);
    assert.equal(new URL(page.url()).pathname, '/settings');
    assert.equal(await rules.getByRole('textbox', { name: 'Ban duration' }).inputValue(), '400');

    await rules.getByRole('button', { name: 'Save ban rules' }).click();
    const field = rules.locator('.mantine-InputWrapper-root', {
      has: page.getByRole('textbox', { name: 'Ban duration' }),
    });
    const error = await (await visible(field.locator('.mantine-InputWrapper-error'))).innerText();
    const hint = await field.locator('.mantine-InputWrapper-description').innerText();
    assert.match(hint, /365 d/);
    assert.match(error, /365 d/, error);
    assert.doesNotMatch(error, /31536000/);
    assert.equal((await server.call(`${V3}fail2ban`)).json.data.bantime, 600, 'nothing stored');

    // Leaving and accepting goes on; nothing was saved.
    const accepted = new Promise<void>((resolve) =>
      page.once('dialog', (dialog) => void dialog.accept().then(() => resolve())),
    );
    await openScreen(page, 'Dashboard');
    await accepted;
    // Nothing unsaved any more: the next navigation does not ask.
    await openScreen(page, 'Settings');
    await openScreen(page, 'API keys');
  });

  it('shows dates in one format: 24-hour, local, with the zone', async () => {
    const { page } = browser;
    assert.equal(
      (
        await server.call(`${V3}api-keys`, {
          method: 'POST',
          body: { description: 'dated key', networkfilterid: 'localhost' },
        })
      ).status,
      201,
    );
    await page.goto(`${server.url}/api-keys`);
    const row = await visible(page.getByTestId('api-key-row').filter({ hasText: 'dated key' }));
    await row
      .getByRole('button', { name: /Actions for|Details/ })
      .first()
      .click();
    const details = page.getByRole('menuitem', { name: 'Details' });
    if (await details.count()) await details.click();
    const dialog = await visible(page.getByRole('dialog'));
    const created = (await dialog.getByText(ONE_DATE_FORMAT).first().innerText()).trim();
    assert.match(created, ONE_DATE_FORMAT);
    assert.doesNotMatch(await dialog.innerText(), /\b(AM|PM)\b|\d{4}-\d{2}-\d{2}T/);
  });
});
