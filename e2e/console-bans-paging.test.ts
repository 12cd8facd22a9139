// The Bans page at a few thousand bans (issue #28 item 6): one page of rows in the DOM, the total
// and the category counts from the server, Next, a server-side search that finds one ban and counts
// its matches, and bulk unban within the page shown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const IMPORTED = 3000;
/** 198.18.0.1 ... 198.18.11.250 (the benchmarking range): 250 a /24. */
const address = (i: number) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;

async function seedBans(server: TestServer): Promise<void> {
  const content = Array.from({ length: IMPORTED }, (_, i) => address(i)).join('\n');
  const body = { format: 'values', content, duration: '1d', reason: 'bulk list' };
  const imported = await server.call(`${V3}firewall:importBans`, { method: 'POST', body });
  assert.equal(imported.status, 200, imported.text.slice(0, 300));
  // Banned last, so the newest: the one ban a search should find.
  const fraud = { ip: '203.0.113.77', duration: '1h', reason: 'toll fraud' };
  assert.equal((await server.call(`${V3}firewall:banIp`, { method: 'POST', body: fraud })).status, 201);
}

describe('console: the Bans page pages, searches and counts on the server', () => {
  const app = useConsole({ prepare: seedBans, openAt: '/bans' });
  const { bans } = app.screens;
  const rowCount = (n: number, what: string) =>
    eventually(
      () => bans.row().count(),
      (count) => count === n,
      what,
    );

  it('shows one page of 50 rows of 3,001, the counts per category, and the next page', async () => {
    await rowCount(50, 'one page of rows, not 3,001');
    assert.equal(await (await bans.pageRange()).innerText(), '1–50 of 3,001');
    await bans.see('All (3,001)');
    await bans.see('Manual (3,001)');
    await bans.see('SIP (0)');
    const firstPage = await bans.row().first().innerText();
    assert.match(firstPage, /203\.0\.113\.77/, 'newest first');

    await bans.turnPage('Next');
    await bans.see('51–100 of 3,001');
    await rowCount(50, 'the second page');
    assert.doesNotMatch(
      await bans
        .row()
        .allInnerTexts()
        .then((rows) => rows.join('\n')),
      /203\.0\.113\.77/,
    );
  });

  it('a search asks the server: one ban found by its reason, 111 by part of an address', async () => {
    await bans.filterByIp('toll');
    await bans.see('1–1 of 1');
    await rowCount(1, 'the one ban whose reason matches');
    assert.match(await bans.row().first().innerText(), /203\.0\.113\.77[\s\S]*toll fraud/);
    await bans.see('All (1)');

    // 198.18.3.1, .10 to .19 and .100 to .199; the search went back to the first page.
    await bans.filterByIp('198.18.3.1');
    await bans.see('1–50 of 111');
    await rowCount(50, 'the first page of 111 matches');
    await bans.see('All (111)');
  });

  it('bulk unban lifts the rows ticked on the page shown', async () => {
    await bans.filterByIp('toll');
    await visible(bans.row('203.0.113.77'));
    // The row's own tick box (the page's rows are memoized: the tick must still show and count).
    await bans.select('203.0.113.77');
    await bans.press('Unban selected (1)');
    await bans.confirm('Unban 1 address', 'Unban 1 address?');
    await bans.see('No ban matches the filter');
    await bans.filterByIp('');
    await bans.see('1–50 of 3,000');
    const counts = (await app.server.call(`${V3}firewall:getBanCounts`)).json.data;
    assert.equal(counts.total, IMPORTED);
  });
});
