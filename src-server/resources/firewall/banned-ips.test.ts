import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { PULL_FROM_NOWHERE, storeUpstreamDecisions, type UpstreamRow } from '../../test-support/crowdsec-link.ts';
import { useTestServer } from '../../test-support/server.ts';
import { FIREWALL } from '../../test-support/v3-paths.ts';

type Banned = { ip: string; category: string; reason?: string };

describe('firewall:getBannedIps pages, searches and counts on the server', () => {
  const t = useTestServer();
  const list = async (query: string) => {
    const answer = await t.call(`${FIREWALL}:getBannedIps${query}`);
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    return { bans: answer.json.data as Banned[], pagination: answer.json.pagination };
  };
  const imported = Array.from({ length: 120 }, (_, i) => `203.0.113.${i}`);

  before(async () => {
    const content = imported.join('\n');
    const body = { format: 'values', content, duration: '1d', reason: 'bulk list' };
    assert.equal((await t.call(`${FIREWALL}:importBans`, { method: 'POST', body })).status, 200);
    // Banned last: the newest, so the first row of the first page.
    const fraud = { ip: '198.51.100.77', duration: '1h', reason: 'toll fraud 100%' };
    assert.equal((await t.call(`${FIREWALL}:banIp`, { method: 'POST', body: fraud })).status, 201);
  });

  test('limit and offset give one page, newest first, with the total over every page', async () => {
    const first = await list('?limit=50');
    assert.equal(first.bans.length, 50);
    assert.equal(first.bans[0]!.ip, '198.51.100.77');
    assert.deepEqual(first.pagination, { total: 121, limit: 50, offset: 0, hasMore: true });
    const last = await list('?limit=50&offset=100');
    assert.equal(last.bans.length, 21);
    assert.deepEqual(last.pagination, { total: 121, limit: 50, offset: 100, hasMore: false });
    const middle = await list('?limit=50&offset=50');
    const seen = new Set([...first.bans, ...middle.bans, ...last.bans].map((ban) => ban.ip));
    assert.equal(seen.size, 121, 'the pages neither overlap nor skip a ban');
  });

  test('offset alone pages with the default limit of 50', async () => {
    const page = await list('?offset=10');
    assert.equal(page.bans.length, 50);
    assert.deepEqual(page.pagination, { total: 121, limit: 50, offset: 10, hasMore: true });
  });

  test('without limit or offset every ban is listed, as before', async () => {
    const all = await list('');
    assert.equal(all.bans.length, 121);
    assert.equal(all.pagination.total, 121);
  });

  test('search matches part of the address or the reason, and the total counts the matches', async () => {
    const fraud = await list('?search=toll&limit=50');
    assert.deepEqual(
      fraud.bans.map((ban) => ban.ip),
      ['198.51.100.77'],
    );
    assert.equal(fraud.pagination.total, 1);
    // .1, .10 to .19 and .100 to .119
    const part = await list('?search=203.0.113.1&limit=10');
    assert.equal(part.bans.length, 10);
    assert.deepEqual(part.pagination, { total: 31, limit: 10, offset: 0, hasMore: true });
    assert.ok(part.bans.every((ban) => ban.ip.startsWith('203.0.113.1')));
    // `%` and `_` match themselves, not any text.
    assert.equal((await list('?search=100%25&limit=50')).pagination.total, 1);
    assert.equal((await list('?search=_&limit=50')).pagination.total, 0);
  });

  test('category keeps only that category', async () => {
    assert.deepEqual((await list('?category=sip&limit=5')).pagination, {
      total: 0,
      limit: 5,
      offset: 0,
      hasMore: false,
    });
    assert.equal((await list('?category=manual&limit=5')).pagination.total, 121);
    assert.equal((await list('?category=upstream&limit=5')).pagination.total, 0);
  });

  test('bad paging or category gets 422 naming the parameter', async () => {
    const cases: Array<[string, RegExp]> = [
      ['?limit=-1', /limit/],
      ['?limit=abc', /limit/],
      ['?limit=5000', /limit/],
      ['?limit=0', /limit/],
      ['?offset=-3', /offset/],
      ['?offset=x', /offset/],
      ['?category=ftp', /category/],
    ];
    for (const [query, field] of cases) {
      const answer = await t.call(`${FIREWALL}:getBannedIps${query}`);
      assert.equal(answer.status, 422, query);
      assert.match(answer.json.messages.error.join(' '), field, query);
    }
  });

  test('firewall:getBanCounts counts the matches per category without the rows', async () => {
    const all = (await t.call(`${FIREWALL}:getBanCounts`)).json.data;
    assert.equal(all.total, 121);
    assert.deepEqual(all.categories, { sip: 0, http: 0, ami: 0, iax: 0, manual: 121, upstream: 0 });
    assert.ok(Date.parse(all.newestBannedAt) > 0);
    const fraud = (await t.call(`${FIREWALL}:getBanCounts?search=fraud`)).json.data;
    assert.equal(fraud.total, 1);
    assert.equal(fraud.categories.manual, 1);
  });
});

describe('firewall:getBannedIps pages over its own bans, then the upstream ones', () => {
  const t = useTestServer();
  const page = async (query: string) => {
    const answer = await t.call(`${FIREWALL}:getBannedIps${query}`);
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    return { ips: (answer.json.data as Banned[]).map((ban) => ban.ip), pagination: answer.json.pagination };
  };

  before(async () => {
    // Pulling on, from a LAPI that never answers: what the link kept in SQLite is what it enforces.
    assert.equal(
      (await t.call('/pbxcore/api/v3/crowdsec-link', { method: 'PUT', body: PULL_FROM_NOWHERE })).status,
      200,
    );
    const now = Date.now();
    // 10.1.0.0 lasts longest, so it is listed first.
    storeUpstreamDecisions(
      t.server.services.db,
      Array.from(
        { length: 5 },
        (_, i): UpstreamRow => [i + 1, `10.1.0.${i}`, 'crowdsecurity/ssh-bf', 'CAPI', now + 3600_000 - i * 1000],
      ),
    );
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      assert.equal((await t.call(`${FIREWALL}:banIp`, { method: 'POST', body: { ip, duration: '1h' } })).status, 201);
  });

  test('a page that crosses from the own bans into the upstream ones, and the pages after it', async () => {
    const first = await page('?limit=4');
    assert.deepEqual(first.ips, ['198.51.100.3', '198.51.100.2', '198.51.100.1', '10.1.0.0']);
    assert.deepEqual(first.pagination, { total: 8, limit: 4, offset: 0, hasMore: true });
    const second = await page('?limit=4&offset=4');
    assert.deepEqual(second.ips, ['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.4']);
    assert.deepEqual(second.pagination, { total: 8, limit: 4, offset: 4, hasMore: false });
  });

  test('category upstream pages the upstream bans alone; a search reaches them too', async () => {
    const upstream = await page('?category=upstream&limit=2&offset=4');
    assert.deepEqual(upstream.ips, ['10.1.0.4']);
    assert.equal(upstream.pagination.total, 5);
    const found = await page('?search=10.1.0.3&limit=50');
    assert.deepEqual(found.ips, ['10.1.0.3']);
    assert.equal(found.pagination.total, 1);
    const counts = (await t.call(`${FIREWALL}:getBanCounts`)).json.data;
    assert.equal(counts.total, 8);
    assert.equal(counts.categories.upstream, 5);
    assert.equal(counts.categories.manual, 3);
  });
});
