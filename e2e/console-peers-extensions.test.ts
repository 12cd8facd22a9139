// Peers (issue 22, item 4): extensions are added, edited and removed in the console with the v3
// validation messages under their fields; names show; without AMI a peer's page says once what is
// unknown and why instead of a wall of dashes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { eventually, openScreen, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: extensions from the Peers page', () => {
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

  const stored = async () =>
    (await server.call(`${V3}extensions`)).json.data as Array<{ number: string; username: string; callerid: string }>;

  it('adds an extension after the server refuses bad fields under their names, then edits and removes it', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await openScreen(page, 'Peers');
    await page.getByRole('button', { name: 'New extension' }).first().click();
    const dialog = await visible(page.getByRole('dialog', { name: 'New extension' }));
    const fieldError = (name: string) =>
      dialog
        .locator('.mantine-InputWrapper-root', { has: page.getByRole('textbox', { name, exact: true }) })
        .locator('.mantine-InputWrapper-error');

    await dialog.getByRole('textbox', { name: 'Number', exact: true }).fill('2a');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Alice');
    await dialog.getByLabel('SIP password').fill('long-enough-secret');
    await dialog.getByRole('button', { name: 'Add extension' }).click();
    assert.match(await (await visible(fieldError('Number'))).innerText(), /2 to 8 digits/);
    assert.deepEqual(await stored(), [], 'nothing stored');

    await dialog.getByRole('textbox', { name: 'Number', exact: true }).fill('201');
    await dialog.getByLabel('SIP password').fill('short');
    await dialog.getByRole('button', { name: 'Add extension' }).click();
    const password = dialog
      .locator('.mantine-InputWrapper-root', { has: page.getByLabel('SIP password') })
      .locator('.mantine-InputWrapper-error');
    assert.match(await (await visible(password)).innerText(), /at least 8 characters/);
    assert.deepEqual(await stored(), [], 'nothing stored');
    await browser.screenshot('peers-extension-refused');

    await dialog.getByLabel('SIP password').fill('long-enough-secret');
    await dialog.getByRole('button', { name: 'Add extension' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const row = await visible(page.getByTestId('extension-row').filter({ hasText: '201' }));
    await eventually(
      () => row.innerText(),
      (t) => t.includes('Alice'),
      'the name in the row',
    );
    assert.deepEqual(
      (await stored()).map((e) => [e.number, e.username]),
      [['201', 'Alice']],
    );

    await row.getByRole('button', { name: /Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = await visible(page.getByRole('dialog', { name: 'Edit extension 201' }));
    await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('Alice Smith');
    await edit.getByRole('button', { name: 'Save extension' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await eventually(
      () => row.innerText(),
      (t) => t.includes('Alice Smith'),
      'the new name',
    );
    assert.equal((await stored())[0]?.username, 'Alice Smith');

    await row.getByRole('button', { name: /Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete extension 201?' })
      .getByRole('button', { name: 'Delete extension' })
      .click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await eventually(stored, (list) => list.length === 0, 'the extension removed');
  });

  it('without AMI, a peer page says once what is unknown and why', async () => {
    const { page } = browser;
    const created = await server.call(`${V3}extensions`, {
      method: 'POST',
      body: { number: '202', username: 'Bob', secret: 'long-enough-secret' },
    });
    assert.equal(created.status, 201, created.text);
    await page.goto(`${server.url}/peers/202`);
    await visible(page.getByText('Unknown: the Asterisk manager is not connected'));
    await visible(page.getByRole('link', { name: 'Check the AMI connection in Settings' }));
    assert.equal(await page.locator('dd').filter({ hasText: /^—$/ }).count(), 0, 'no wall of dashes');
    await browser.screenshot('peer-detail-no-ami');
  });
});
