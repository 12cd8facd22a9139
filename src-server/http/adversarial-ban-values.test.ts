import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { filterBanValues } from '../firewall/filters/index.ts';
import { cidrContains } from '../net/cidr.ts';
import { securityFailureOf } from '../peers/security-events.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { RANGE_SPELLINGS, UNSPECIFIED_RANGES } from '../test-support/adversarial-corpus.ts';
import { banThroughFailures, pollUntil, type Decision } from '../test-support/bouncer.ts';
import { request } from '../test-support/http.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { FAIL2BAN, FIREWALL } from '../test-support/v3-paths.ts';
import { canonicalUpstreamValue, ProtectedValues } from '../upstream/protected-values.ts';

/**
 * Issue 28 items 3, 4, 8, 9 and 10: every path that creates or lifts a ban follows one rule.
 * Values have one canonical form whichever path wrote them (so an unban by address lifts them);
 * loopback, unspecified, whitelisted and trusted addresses are never inside a ban; and every
 * publisher (guard, stream, /v1/decisions, lookup, feed) gives one answer for an address.
 */

const PING = '/pbxcore/api/v3/system:ping';
const DECISIONS = '/pbxcore/api/v3/firewall-bouncer/v1/decisions';
const FEED = '/pbxcore/api/v3/firewall-bouncer/blocklist';

type Banned = { ip: string; category: string; reason?: string };

const importBans = (t: TestServer, body: Record<string, unknown>) =>
  t.call(`${FIREWALL}:importBans`, { method: 'POST', body });
const bannedValues = async (t: TestServer) =>
  ((await t.call(`${FIREWALL}:getBannedIps?limit=1000`)).json.data as Banned[]).map((b) => b.ip);
const unban = async (t: TestServer, ip: string) =>
  (await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip } })).json.data.lifted as number;
const lookup = async (t: TestServer, ip: string) =>
  (await t.call(`${FIREWALL}:lookup?ip=${encodeURIComponent(ip)}`)).json.data as {
    blocked: boolean;
    decisions: Array<{ value: string }>;
    protections: Array<{ kind: string; value: string }>;
  };
const historyRows = (t: TestServer) =>
  (t.server.services.db.prepare('SELECT COUNT(*) AS n FROM firewall_bans').get() as { n: number }).n;
const has = (value: string) => (answer: { new: Decision[] }) => answer.new.some((d) => d.value === value);

/** Addresses no ban may hold, and the raw IPv4-mapped space (parsed apart: it reads as IPv4 otherwise). */
const NEVER_BANNED_SAMPLES = ['0.0.0.0', '0.1.2.3', '0.255.255.255', '::', '::1', '127.0.0.1'];
const MAPPED = ipaddr.IPv6.parse('::ffff:0:0');
function holdsNeverBanned(value: string): string | undefined {
  const held = NEVER_BANNED_SAMPLES.find((ip) => value === ip || (value.includes('/') && cidrContains(value, ip)));
  if (held) return held;
  if (value.includes(':') && value.includes('/') && MAPPED.match(ipaddr.IPv6.parseCIDR(value))) return '::ffff:0:0';
  return undefined;
}

describe('canonical forms across paths', () => {
  let t: TestServer;
  let key: string;
  before(async () => {
    t = await startTestServer();
    key = createTestApiKey(t.server.services.db).key;
  });
  after(() => t.close());

  test('an import of 127.0.57.7/32 is the address: unbanIp 127.0.57.7 lifts it and the guard lets it in again', async () => {
    const answer = await importBans(t, { format: 'values', content: '127.0.57.7/32' });
    assert.equal(answer.status, 200, answer.text);
    assert.ok((await bannedValues(t)).includes('127.0.57.7'));
    await pollUntil(t, key, has('127.0.57.7'));
    assert.equal((await request(`${t.url}${PING}`, { localAddress: '127.0.57.7' })).status, 403);
    assert.equal(await unban(t, '127.0.57.7'), 1);
    assert.ok(!(await bannedValues(t)).some((v) => v.startsWith('127.0.57.7')));
    await pollUntil(t, key, (a) => !has('127.0.57.7')(a) && !has('127.0.57.7/32')(a));
    assert.equal((await request(`${t.url}${PING}`, { localAddress: '127.0.57.7' })).status, 200);
  });

  test('198.18.40.11 and 198.18.40.11/32 in one import are one ban', async () => {
    const answer = await importBans(t, { format: 'values', content: '198.18.40.11\n198.18.40.11/32' });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual([answer.json.data.bans, answer.json.data.merged], [1, 1]);
    assert.deepEqual(
      (await bannedValues(t)).filter((v) => v.startsWith('198.18.40.11')),
      ['198.18.40.11'],
    );
  });

  test('every spelling of one address, imported as a Range, is lifted by unbanIp of any other spelling', async () => {
    for (const { canonical, spellings } of RANGE_SPELLINGS.filter((r) => !r.canonical.includes('/'))) {
      for (const [i, spelling] of spellings.entries()) {
        const content = JSON.stringify([{ value: spelling, scope: 'Range', duration: '1h' }]);
        const answer = await importBans(t, { format: 'json', content });
        assert.equal(answer.status, 200, `${spelling}: ${answer.text}`);
        assert.equal(answer.json.data.changes[0]?.value, canonical, spelling);
        const other = spellings[(i + 1) % spellings.length]!;
        assert.equal(await unban(t, other), 1, `${spelling} lifted by ${other}`);
      }
    }
  });

  test('intrusion bans with ipv6Prefix 128 are stored as the address, and unbanIp of the address lifts them', async () => {
    const patch = { ipv6ByPrefix: true, ipv6Prefix: 128, maxretry: 3 };
    assert.equal((await t.call(FAIL2BAN, { method: 'PATCH', body: patch })).status, 200);
    banThroughFailures(t, 'sip', '2001:db8:77::1');
    const values = await bannedValues(t);
    assert.ok(values.includes('2001:db8:77::1'), values.join(' '));
    assert.ok(!values.some((v) => v.endsWith('/128')), values.join(' '));
    assert.equal(await unban(t, '2001:db8:77::1'), 1);
    assert.equal((await t.call(FAIL2BAN, { method: 'PATCH', body: { ipv6ByPrefix: false } })).status, 200);
  });

  test('an upstream Range of one address is the address', () => {
    assert.equal(canonicalUpstreamValue('198.51.100.77/32', 'Range'), '198.51.100.77');
    assert.equal(canonicalUpstreamValue('2001:DB8::77/128', 'Range'), '2001:db8::77');
  });

  test('the export re-imports unchanged on the same server: no 422, nothing extended, no history row', async () => {
    for (const body of [
      { ip: '203.0.113.50', duration: '2h', reason: 'scanner' },
      { ip: '198.51.100.0/25', duration: 'permanent', reason: 'feed' },
      { ip: '2001:db8:5::/48', duration: 86_400, services: ['SIP'] },
      { ip: '127.0.98.0/24', duration: '1d' },
    ])
      assert.equal((await t.call(`${FIREWALL}:banIp`, { method: 'POST', body })).status, 201);
    // A whitelisted address inside a kept ban: the ban is carved, so the export holds no overlap.
    assert.equal((await t.call(FAIL2BAN, { method: 'PATCH', body: { whitelist: '127.0.98.7' } })).status, 200);
    // An intrusion ban too: an export with source=all lists it, and its re-import adds nothing.
    banThroughFailures(t, 'sip', '198.18.60.9');
    assert.ok((await bannedValues(t)).includes('198.18.60.9'));
    for (const [format, source] of [
      ['json', 'manual'],
      ['csv', 'manual'],
      ['json', 'all'],
      ['csv', 'all'],
    ]) {
      const exported = (await t.call(`${FIREWALL}:exportBans?format=${format}&source=${source}`)).json.data;
      const content = exported.content as string;
      if (source === 'all') assert.ok(content.includes('198.18.60.9'), `${format}: the intrusion ban is exported`);
      const rows = historyRows(t);
      const answer = await importBans(t, { format, content });
      assert.equal(answer.status, 200, `${format}: ${answer.text}`);
      const { added, extended, changes } = answer.json.data;
      assert.deepEqual({ added, extended, changes }, { added: 0, extended: 0, changes: [] }, `${format} ${source}`);
      assert.equal(historyRows(t), rows, `${format} ${source}: no history row`);
    }
  });

  test('an import line overlapping a whitelist entry is carved with a warning, never a 422 for the file', async () => {
    // A ban stored before the rule (an older server's export): a /24 over the whitelisted 127.0.98.7.
    const content = JSON.stringify([
      { value: '127.0.98.0/24', duration: '1h', reason: 'old' },
      { value: '203.0.113.51', duration: '1h' },
    ]);
    const answer = await importBans(t, { format: 'json', content, dryRun: true });
    assert.equal(answer.status, 200, answer.text);
    assert.ok(
      (answer.json.messages.warning as string[]).some((w) =>
        /entry 1: 127\.0\.98\.0\/24 carved around 127\.0\.98\.7 \(whitelisted\)/.test(w),
      ),
      answer.text,
    );
  });
});

describe('never-banned addresses across paths', () => {
  let t: TestServer;
  before(async () => {
    // Listening on every address, IPv6 too, so that [::1] reaches it.
    t = await startTestServer({ host: '::' });
  });
  after(() => t.close());

  test('an import of each unspecified form is refused or carved, with the reason; no ban holds one', async () => {
    for (const value of UNSPECIFIED_RANGES) {
      const answer = await importBans(t, { format: 'values', content: value, duration: '1h' });
      const messages = [...(answer.json.messages?.error ?? []), ...(answer.json.messages?.warning ?? [])].join(' ');
      assert.ok([200, 422].includes(answer.status), `${value}: ${answer.status}`);
      // A range with host bits is refused for that first; ::ffff:0:0/96 is 0.0.0.0/0, every address.
      assert.match(messages, /unspecified|host bits|every address/, `${value}: ${answer.text}`);
    }
    const held = (await bannedValues(t)).filter((v) => holdsNeverBanned(v));
    assert.deepEqual(held, []);
  });

  test('intrusion failures from unspecified sources (IPV4/UDP/0.0.0.0/5060) never ban', async () => {
    const failures = [
      'IPV4/UDP/0.0.0.0/5060',
      'IPV4/UDP/0.1.2.3/5060',
      'IPV6/UDP/[::]/5060',
      'IPV6/UDP/[::ffff:0.0.0.0]/5060',
    ].map((RemoteAddress) => securityFailureOf({ Event: 'InvalidPassword', Service: 'PJSIP', RemoteAddress })!);
    for (const failure of failures)
      for (let i = 0; i < 25; i++) t.server.services.bus.emit({ type: 'security-failure', ...failure });
    assert.deepEqual(
      (await bannedValues(t)).filter((v) => holdsNeverBanned(v)),
      [],
    );
    assert.equal(t.server.services.firewall.bans.isBanned('0.0.0.0'), false);
  });

  test('a LAPI pull never holds an unspecified or loopback value', () => {
    const guard = new ProtectedValues(t.server.services.firewall.state);
    for (const raw of [...UNSPECIFIED_RANGES, '127.0.0.1', '::1', '::/64', '127.0.0.0/8']) {
      const value = canonicalUpstreamValue(raw, raw.includes('/') ? 'Range' : 'Ip')!;
      assert.equal(guard.isProtected(value), true, `${raw} (${value})`);
    }
    assert.equal(guard.isProtected('198.51.100.0/24'), false);
  });

  test('a filter deny entry holding an unspecified address is never published', () => {
    assert.deepEqual(filterBanValues({ deny: '0.0.0.0/8, 0.1.2.3, ::/64, 198.51.100.0/24' }), ['198.51.100.0/24']);
  });

  test('ipv6ByPrefix: failures from ::2, ::3, ::4 never ban ::1; the guard lets [::1] in and the lookup agrees', async () => {
    const patch = { ipv6ByPrefix: true, ipv6Prefix: 64, maxretry: 3 };
    assert.equal((await t.call(FAIL2BAN, { method: 'PATCH', body: patch })).status, 200);
    for (const ip of ['::2', '::3', '::4'])
      t.server.services.bus.emit({ type: 'security-failure', category: 'http', ip, reason: 'bad password' });
    const http = ((await t.call(`${FIREWALL}:getBannedIps?limit=1000`)).json.data as Banned[])
      .filter((b) => b.category === 'http')
      .map((b) => b.ip);
    assert.deepEqual(http.sort(), ['::2', '::3', '::4'], 'banned one by one, never as ::/64');
    const key = createTestApiKey(t.server.services.db).key;
    const stream = await pollUntil(t, key, has('::4'));
    assert.ok(!stream.new.some((d) => d.value.includes('/') && cidrContains(d.value, '::1')));
    const port = new URL(t.url).port;
    assert.equal((await request(`http://[::1]:${port}${PING}`)).status, 200);
    const own = await lookup(t, '::1');
    assert.deepEqual([own.blocked, own.decisions], [false, []]);
    assert.equal((await lookup(t, '::4')).blocked, true);
  });

  test('the guard never refuses the host loopback, even under a ban that holds it (stored before the rule)', async () => {
    t.server.services.firewall.bans.ban('http', '::/64', 'stored before the rule', 600);
    const port = new URL(t.url).port;
    assert.equal((await request(`http://[::1]:${port}${PING}`)).status, 200);
    assert.equal((await t.call(PING)).status, 200);
  });
});

describe('publisher agreement: a whitelisted address inside a wider ban', () => {
  let t: TestServer;
  let key: string;
  before(async () => {
    t = await startTestServer();
    key = createTestApiKey(t.server.services.db).key;
  });
  after(() => t.close());

  test('the ban is carved around it: guard, stream, /v1/decisions?ip=, lookup and the feed all let it through', async () => {
    const ban = await t.call(`${FIREWALL}:banIp`, { method: 'POST', body: { ip: '127.0.96.0/24', duration: '1h' } });
    assert.equal(ban.status, 201, ban.text);
    const save = await t.call(FAIL2BAN, { method: 'PATCH', body: { whitelist: '127.0.96.5' } });
    assert.equal(save.status, 200, save.text);
    assert.match((save.json.messages.warning as string[]).join(' '), /carved/);

    const stream = await pollUntil(t, key, (a) => has('127.0.96.4')(a) && !has('127.0.96.0/24')(a));
    assert.ok(
      !stream.new.some(
        (d) => d.value === '127.0.96.5' || (d.value.includes('/') && cidrContains(d.value, '127.0.96.5')),
      ),
    );
    assert.ok(stream.new.some((d) => d.value === '127.0.96.6/31'));

    // The guard (this server's own enforcement).
    assert.notEqual((await request(`${t.url}${PING}`, { localAddress: '127.0.96.5' })).status, 403);
    assert.equal((await request(`${t.url}${PING}`, { localAddress: '127.0.96.6' })).status, 403);

    // CrowdSec's live mode.
    const ask = (ip: string) => t.call(`${DECISIONS}?ip=${ip}`, { headers: { 'X-Api-Key': key } });
    assert.equal((await ask('127.0.96.5')).text, 'null');
    assert.deepEqual(
      ((await ask('127.0.96.6')).json as Decision[]).map((d) => d.value),
      ['127.0.96.6/31'],
    );

    // "Why is this address blocked?"
    const whitelisted = await lookup(t, '127.0.96.5');
    assert.deepEqual([whitelisted.blocked, whitelisted.decisions], [false, []]);
    assert.deepEqual(whitelisted.protections, [{ kind: 'whitelist', value: '127.0.96.5' }]);
    assert.deepEqual(
      (await lookup(t, '127.0.96.6')).decisions.map((d) => d.value),
      ['127.0.96.6/31'],
    );

    // The router feed.
    const feed = await t.call(`${FEED}?format=plain_text`, { headers: { 'X-Api-Key': key } });
    assert.equal(feed.status, 200);
    const lines = feed.text.split('\n').filter(Boolean);
    assert.ok(lines.includes('127.0.96.4') && lines.includes('127.0.96.6/31'), feed.text);
    assert.ok(!lines.some((l) => l === '127.0.96.5' || (l.includes('/') && cidrContains(l, '127.0.96.5'))), feed.text);
  });
});
