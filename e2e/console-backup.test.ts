// Settings: Export in the console, Import (preview, then Apply) into a fresh server, same state.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { SettingsScreen } from './pages/settings.ts';
import { visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

async function stateOf(t: TestServer) {
  const out: Record<string, unknown> = {};
  for (const name of ['firewall', 'fail2ban', 'general-settings', 'ami'])
    out[name] = (await t.call(`${V3}${name}`)).json.data;
  return out;
}

describe('console: configuration export and import', () => {
  let source: TestServer;
  let target: TestServer;
  let browser: ConsoleBrowser;
  const dir = mkdtempSync(join(tmpdir(), 'pbx-e2e-backup-'));
  let exportedFile = '';
  const settings = new SettingsScreen({
    get page() {
      return browser.page;
    },
  });

  before(async () => {
    source = await startConsoleServer({ adminPassword: 'e2e-admin-password' });
    target = await startConsoleServer({ adminPassword: 'e2e-admin-password' });
    const filter = await source.call(`${V3}firewall`, {
      method: 'POST',
      body: {
        permit: '192.0.2.0/24',
        deny: '203.0.113.0/24',
        description: 'Office',
        currentRules: { SIP: true, WEB: true, AMI: false, IAX: false },
      },
    });
    assert.equal(filter.status, 201, filter.text);
    assert.equal(
      (await source.call(`${V3}fail2ban`, { method: 'PATCH', body: { maxretry: 6, whitelist: '10.8.0.0/16' } })).status,
      200,
    );
    assert.equal(
      (await source.call(`${V3}general-settings`, { method: 'PATCH', body: { APIRequestTTL: 40 } })).status,
      200,
    );
    assert.equal(
      (
        await source.call(`${V3}api-keys`, {
          method: 'POST',
          body: { description: 'bouncer', networkfilterid: String(filter.json.data.id) },
        })
      ).status,
      201,
    );
    browser = await launchConsoleBrowser();
  });

  after(async () => {
    await browser?.close();
    await source?.close();
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports from one server and imports into a fresh one after a preview', async () => {
    const { page } = browser;
    await page.goto(`${source.url}/`);
    await settings.show();
    const download = await settings.exportConfig();
    assert.match(download.suggestedFilename(), /^pbx-console-config-\d{4}-\d{2}-\d{2}\.json$/);
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { format: string; apiKeys: unknown[] };
    assert.equal(doc.format, 'pbx-console-config');
    assert.equal(doc.apiKeys.length, 1);

    await page.goto(`${target.url}/`);
    await settings.show();
    const dialog = await settings.importConfig(file, /^Import pbx-console-config/);
    const preview = await visible(dialog.table('What the import changes'));
    const text = await preview.innerText();
    assert.match(text, /Added: "Office" \(192\.0\.2\.0\/24\)/);
    // Each changed setting with its value now and in the file.
    assert.match(text, /Changed: Failures before a ban: 20 → 6, Whitelist: \(empty\) → 10\.8\.0\.0\/16/);
    assert.match(text, /1 not restored: keys are secrets; issue new ones/);
    await browser.screenshot('settings-import-preview');
    assert.deepEqual((await target.call(`${V3}firewall`)).json.data, [], 'the preview wrote nothing');
    await dialog.save('Apply');
    await settings.dialogsClosed();
    assert.deepEqual(await stateOf(target), await stateOf(source));
    exportedFile = file;
  });

  it('a file that fails validation lists the errors, naming the section and field, and offers no Apply', async () => {
    const bad = join(dir, 'bad.json');
    const doc = JSON.parse(readFileSync(exportedFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(bad, JSON.stringify({ ...doc, generalSettings: { APIQueueMaxLength: 0 } }));
    const before = await stateOf(target);
    const dialog = await settings.importConfig(bad, 'Import bad.json');
    const errors = await visible(dialog.list('Import errors'));
    assert.match(await errors.innerText(), /generalSettings\.APIQueueMaxLength:/);
    assert.equal(await dialog.button('Apply').count(), 0);
    await dialog.button('Close', true).last().click();
    await settings.dialogsClosed();
    assert.deepEqual(await stateOf(target), before);
  });

  it('a file that is not a configuration backup says so and changes nothing', async () => {
    const before = await stateOf(target);
    for (const [name, content, why] of [
      ['bans.json', JSON.stringify([{ value: '192.0.2.1', duration: '4h' }]), /not a configuration backup/],
      ['bans.txt', '192.0.2.1\n198.51.100.0/24\n', /not JSON/],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, content);
      const dialog = await settings.importConfig(file, `Import ${name}`);
      assert.match(await (await visible(dialog.list('Import errors'))).innerText(), why);
      assert.equal(await dialog.button('Apply').count(), 0);
      await dialog.button('Close', true).last().click();
      await settings.dialogsClosed();
    }
    assert.deepEqual(await stateOf(target), before);
  });
});
