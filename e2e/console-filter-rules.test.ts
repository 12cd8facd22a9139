// Network filter form: a loopback deny entry is refused under Deny; an edit keeps the reference
// PBX's stored-only categories (SSH...) that a script set and the form does not show.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { openScreen, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: network filter rules', () => {
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

  it('shows the loopback refusal under Deny and writes nothing', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await openScreen(page, 'Network filters');
    await page.getByRole('button', { name: 'New filter' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'New network filter' }));
    await dialog.getByRole('textbox', { name: 'Network' }).fill('10.30.0.0/16');
    await dialog.getByRole('textbox', { name: 'Deny' }).fill('198.51.100.9, 127.0.0.0/8');
    await dialog.getByRole('button', { name: 'Create filter' }).click();
    const fieldError = (name: string) =>
      dialog
        .locator('.mantine-InputWrapper-root', { has: page.getByRole('textbox', { name, exact: true }) })
        .locator('.mantine-InputWrapper-error');
    assert.match(
      await (await visible(fieldError('Deny'))).innerText(),
      /127\.0\.0\.0\/8.*covers this PBX's own loopback address.*never published to bouncers/,
    );
    assert.equal(await fieldError('Network').count(), 0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.deepEqual((await server.call(`${V3}firewall`)).json.data, []);
  });

  it('an edit in the console keeps the SSH and NTP rules a script stored', async () => {
    const { page } = browser;
    const created = await server.call(`${V3}firewall`, {
      method: 'POST',
      body: {
        permit: '10.40.0.0/16',
        description: 'Scripted',
        currentRules: { SIP: true, WEB: true, AMI: true, IAX: true, SSH: false, NTP: true },
      },
    });
    assert.equal(created.status, 201, created.text);
    await page.reload();
    const row = await visible(page.getByTestId('filter-row').filter({ hasText: '10.40.0.0/16' }));
    await row.getByRole('button', { name: 'Actions for 10.40.0.0/16' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = await visible(page.getByRole('dialog', { name: 'Edit filter 10.40.0.0/16' }));
    await edit.getByLabel('Allow IAX').uncheck();
    await edit.getByRole('button', { name: 'Save filter' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const stored = (await server.call(`${V3}firewall/${created.json.data.id as number}`)).json.data;
    assert.deepEqual(stored.rules, {
      SIP: 'allow',
      WEB: 'allow',
      AMI: 'allow',
      IAX: 'block',
      SSH: 'block',
      NTP: 'allow',
    });
  });
});
