// The audit log in the console: a change made in the console (a network filter that blocks SIP) and
// a secret written through the API show up on the Audit log page with who, from where and the
// changed fields; the secret only as "•••• (changed)".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { eventually, openScreen, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const SECRET = 'audit-e2e-ami-secret';

describe('console: audit log', () => {
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

  it('a network blocked in the console is in the audit log with its fields; a written secret is masked', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await openScreen(page, 'Network filters');
    await page.getByRole('button', { name: 'New filter' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'New network filter' }));
    await dialog.getByRole('textbox', { name: 'Network' }).fill('198.51.100.0/24');
    await dialog.getByLabel('Description').fill('Blocked carrier');
    await dialog.getByLabel('Allow SIP').uncheck();
    await dialog.getByRole('button', { name: 'Create filter' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await visible(page.getByTestId('filter-row').filter({ hasText: '198.51.100.0/24' }));

    const ami = await server.call(`${V3}ami`, { method: 'PATCH', body: { username: 'auditor', secret: SECRET } });
    assert.equal(ami.status, 200, ami.text);

    await openScreen(page, 'Audit log');
    const created = await visible(
      page.getByTestId('audit-row').filter({ hasText: /Created network filter 198\.51\.100\.0\/24/ }),
    );
    const text = await created.innerText();
    assert.match(text, /change/i);
    assert.match(text, /Localhost \(this machine\)/);
    assert.match(text, /127\.0\.0\.1/);
    assert.match(text, /201/);
    await created.getByRole('button', { name: /Show \d+ changes/ }).click();
    const diff = await visible(created.getByRole('table', { name: 'Changed fields' }));
    await eventually(
      () => diff.innerText(),
      (t) =>
        /198\.51\.100\.0\/24/.test(t) &&
        /Blocked carrier/.test(t) &&
        /SIP blocked/.test(t) &&
        /Network/.test(t) &&
        !/newer_block_ip/.test(t),
      'the created fields',
    );
    await browser.screenshot('audit-log');

    const secretRow = await visible(
      page.getByTestId('audit-row').filter({ hasText: 'Changed Asterisk manager connection' }),
    );
    await secretRow.getByRole('button', { name: /Show \d+ changes/ }).click();
    const masked = await visible(secretRow.getByRole('table', { name: 'Changed fields' }));
    await eventually(
      () => masked.innerText(),
      (t) => /Secret/.test(t) && /•••• \(changed\)/.test(t) && /auditor/.test(t),
      'the masked secret',
    );
    assert.ok(!(await page.content()).includes(SECRET), 'the secret never reaches the page');

    // The same entries as a CSV file, in the sentences the table shows.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    assert.match(csv, /^When,What,Who,From,Status,Changes,Attempts\r\n/);
    assert.match(csv, /Created network filter 198\.51\.100\.0\/24/);
    assert.match(csv, /Changed Asterisk manager connection: /);
    assert.ok(!csv.includes(SECRET), 'the secret is not in the export');

    // A date range: a window that ended before these entries shows none of them.
    await page.getByLabel('To', { exact: true }).fill('2020-01-01T00:00');
    await visible(page.getByText('No entry matches the filters'));
    await page.getByLabel('To', { exact: true }).fill('');
    await visible(page.getByTestId('audit-row').filter({ hasText: /Created network filter/ }));

    // Filters go to the server: only rejected keys leaves nothing here.
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Rejected key' }).click();
    await visible(page.getByText('No entry matches the filters'));
  });

  it('a bouncer polling with an unknown key is one entry with its count, not one per poll', async () => {
    const { page } = browser;
    // Three polls (under the default five failures that ban): each refused, all in one entry.
    for (let poll = 0; poll < 3; poll++) {
      const refused = await server.remote(`${V3}firewall-bouncer/v1/decisions/stream`, {
        headers: { 'X-Api-Key': 'f'.repeat(64) },
      });
      assert.equal(refused.status, 401, refused.text);
    }
    // Rejections are written in batches (every 500 ms): wait for the entry, as an operator's reload would.
    await eventually(
      async () => (await server.call(`${V3}audit-log?kind=rejected-key`)).json.data.length,
      (n) => n > 0,
      'the rejection written',
    );
    await page.reload();
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Rejected key' }).click();
    const row = await visible(page.getByTestId('audit-row').filter({ hasText: '127.0.0.2' }));
    await eventually(
      () => row.getByTestId('audit-repeats').innerText(),
      (t) => /^3 attempts, the last at /.test(t),
      'the repeat count',
    );
    assert.equal(await page.getByTestId('audit-row').count(), 1, 'one entry for the three polls');
    await browser.screenshot('audit-log-repeats');
  });
});
