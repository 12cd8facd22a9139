// Ban lists in the console: the "Router feed" key preset (its feed URL fetched by curl with the key
// as the Basic password, its MikroTik script), and bulk import (refused lines listed, preview, import)
// and export (a downloaded file that lists the imported bans) on the Bans page.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { chooseOption, eventually, openScreen, readClipboard, visible } from './support/page-helpers.ts';

const run = promisify(execFile);
const V3 = '/pbxcore/api/v3/';

describe('console: router feed preset and ban list import/export', () => {
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

  it('the Router feed preset gives a feed URL a router can fetch, and a MikroTik script', async () => {
    const banned = await server.call(`${V3}firewall:banIp`, {
      method: 'POST',
      body: { ip: '203.0.113.45', duration: '1h' },
    });
    assert.equal(banned.status, 201);
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await openScreen(page, 'API keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'New API key' }));
    await dialog.getByLabel('Description').fill('Router gw1');
    await dialog.getByRole('radio', { name: 'Router feed: blocklist for routers and firewalls' }).check();
    // A key has no source until one is chosen; curl below fetches from this computer.
    await chooseOption(
      page,
      dialog.getByRole('combobox', { name: 'Allowed source' }),
      'This computer only (localhost)',
    );
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const panel = await visible(page.getByTestId('router-feed'));
    const apiKey = (await page.getByTestId('issued-key').locator('code').first().innerText()).trim();
    assert.match(apiKey, /^[0-9a-f]{64}$/);
    const port = new URL(server.url).port;
    await panel.getByRole('combobox', { name: 'Address the router reaches this server on' }).click();
    await page.getByRole('option', { name: `http://127.0.0.1:${port}/pbxcore/api/v3/firewall-bouncer/` }).click();
    await browser.screenshot('api-keys-router-feed');

    await panel.getByRole('button', { name: 'Copy feed URL' }).click();
    const url = await eventually(
      () => readClipboard(page),
      (text) => text.includes('/blocklist?format=plain_text'),
      'the feed URL on the clipboard',
    );
    assert.equal(
      url,
      `http://feed:${apiKey}@127.0.0.1:${port}/pbxcore/api/v3/firewall-bouncer/blocklist?format=plain_text`,
    );
    // A router fetches it as it is, credentials in the URL.
    const { stdout } = await run('curl', ['--silent', '--fail', url]);
    assert.equal(stdout, '203.0.113.45\n');
    assert.match(await panel.innerText(), /OPNsense: URL Table alias[\s\S]*URL Table \(IPs\)/);

    await panel.getByRole('combobox', { name: 'Feed format' }).click();
    await page.getByRole('option', { name: 'MikroTik RouterOS script' }).click();
    await panel.getByRole('button', { name: 'Copy MikroTik script' }).click();
    const script = await eventually(
      () => readClipboard(page),
      (text) => text.includes('/system scheduler add'),
      'the MikroTik script on the clipboard',
    );
    assert.ok(script.includes(`http-header-field="X-Api-Key: ${apiKey}"`));
    const fetchUrl = /url="([^"]+)"/.exec(script)?.[1] ?? '';
    const feed = await run('curl', ['--silent', '--fail', '-H', `X-Api-Key: ${apiKey}`, fetchUrl]);
    assert.match(feed.stdout, /\/ip\/firewall\/address-list\/remove \[ find where list="pbx-blocklist" \];/);
    assert.match(feed.stdout, /^\$CrowdSecAddIP "203\.0\.113\.45" "pbx\/manual" "\d+s"$/m);
    await page.getByRole('button', { name: 'I have copied it' }).click();
  });

  it('imports a ban list all or nothing, with a preview, and exports it back', async () => {
    const { page } = browser;
    await openScreen(page, 'Bans');
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Import bans' }));
    await dialog.getByRole('combobox', { name: 'Format' }).click();
    await page.getByRole('option', { name: /^OPNsense/ }).click();
    await dialog
      .getByLabel('List')
      .fill('198.51.100.7 scanner\n10.0.0.5/24 typo\n198.51.100.30-198.51.100.20 reversed\n127.0.0.1 self');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const alert = await visible(dialog.getByRole('alert'));
    await eventually(
      () => alert.innerText(),
      (text) => /Nothing was imported: 3 lines refused/.test(text),
      'the refused lines',
    );
    const listed = await alert.innerText();
    assert.match(listed, /line 2: 10\.0\.0\.5\/24 has host bits set/);
    assert.match(listed, /line 3: range .* ends reversed/);
    assert.match(listed, /line 4: 127\.0\.0\.1 covers this PBX's own loopback/);
    assert.equal(
      await dialog.getByRole('button', { name: 'Import', exact: true }).isDisabled(),
      true,
      'nothing to import before a clean preview',
    );
    const violations = (await new AxeBuilder({ page }).include('[role="dialog"]').analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    assert.deepEqual(
      violations.map((v) => v.id),
      [],
      'the import dialog with its errors has no serious axe violation',
    );

    await dialog
      .getByLabel('List')
      .fill('198.51.100.7 scanner\n198.51.100.7 again\n198.51.100.20-198.51.100.23 lab\n2001:db8::9');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const outcome = await visible(dialog.getByTestId('import-outcome'));
    assert.match(
      await outcome.innerText(),
      /Would import: 3 new, 0 extended, 0 already banned for longer, 1 duplicate entries merged/,
    );
    await browser.screenshot('bans-import-preview');
    assert.equal((await server.call(`${V3}firewall:getBannedIps`)).json.data.length, 1, 'the preview wrote nothing');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await visible(page.getByText('3 new and 0 extended bans'));
    await visible(page.getByTestId('ban-row').filter({ hasText: '198.51.100.20/30' }));

    await page.getByRole('button', { name: 'Export…' }).click();
    const exportDialog = await visible(page.getByRole('dialog', { name: 'Export bans' }));
    await exportDialog.getByRole('combobox', { name: 'Format' }).click();
    await page.getByRole('option', { name: /^CSV/ }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    assert.match(csv, /^value,duration,reason,scope,type,scenario,services\n/);
    for (const value of ['198.51.100.7', '198.51.100.20/30', '2001:db8::9', '203.0.113.45'])
      assert.match(csv, new RegExp(`^${value.replaceAll('.', '\\.')},`, 'm'));
    assert.match(csv, /^198\.51\.100\.7,\d+s,scanner,Ip,ban,pbx\/manual,$/m);
  });
});
