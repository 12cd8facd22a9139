// The audit log in the console: a change made in the console (a network filter that blocks SIP) and
// a secret written through the API show up on the Audit log page with who, from where and the
// changed fields; the secret only as "•••• (changed)".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const SECRET = 'audit-e2e-ami-secret';

describe('console: audit log', () => {
  const app = useConsole({ openAt: '/network-filters' });
  const { filters, audit } = app.screens;

  it('a network blocked in the console is in the audit log with its fields; a written secret is masked', async () => {
    const { server, browser, page } = app;
    await filters.create({ permit: '198.51.100.0/24', description: 'Blocked carrier', block: ['SIP'] });

    const ami = await server.call(`${V3}ami`, { method: 'PATCH', body: { username: 'auditor', secret: SECRET } });
    assert.equal(ami.status, 200, ami.text);

    await audit.show();
    const created = await visible(audit.rows(/Created network filter 198\.51\.100\.0\/24/));
    const text = await created.innerText();
    assert.match(text, /change/i);
    assert.match(text, /Localhost \(this machine\)/);
    assert.match(text, /127\.0\.0\.1/);
    assert.match(text, /201/);
    const diff = await audit.changes(created);
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

    const secretRow = await visible(audit.rows('Changed Asterisk manager connection'));
    const masked = await audit.changes(secretRow);
    await eventually(
      () => masked.innerText(),
      (t) => /Secret/.test(t) && /•••• \(changed\)/.test(t) && /auditor/.test(t),
      'the masked secret',
    );
    assert.ok(!(await page.content()).includes(SECRET), 'the secret never reaches the page');

    // The same entries as a CSV file, in the sentences the table shows.
    const download = await audit.exportCsv();
    assert.match(download.name, /^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(download.path, 'utf8');
    assert.match(csv, /^When,What,Who,From,Status,Changes,Attempts\r\n/);
    assert.match(csv, /Created network filter 198\.51\.100\.0\/24/);
    assert.match(csv, /Changed Asterisk manager connection: /);
    assert.ok(!csv.includes(SECRET), 'the secret is not in the export');

    // A date range: a window that ended before these entries shows none of them.
    await audit.until('2020-01-01T00:00');
    await audit.see('No entry matches the filters');
    await audit.until('');
    await visible(audit.rows(/Created network filter/));

    // Filters go to the server: only rejected keys leaves nothing here.
    await audit.showKind('Rejected key');
    await audit.see('No entry matches the filters');
  });

  it('a bouncer polling with an unknown key is one entry with its count, not one per poll', async () => {
    const { server, browser, page } = app;
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
    await audit.showKind('Rejected key');
    const row = await visible(audit.rows('127.0.0.2'));
    await eventually(
      () => audit.repeats(row),
      (t) => /^3 attempts, the last at /.test(t),
      'the repeat count',
    );
    // The list keeps the unfiltered page on screen until the filtered one arrives: wait for it to settle.
    const entries = await eventually(
      () => audit.rows().count(),
      (n) => n === 1,
      'the filtered list',
    ).catch(() => audit.rows().count());
    assert.equal(entries, 1, 'one entry for the three polls');
    await browser.screenshot('audit-log-repeats');
  });
});
