import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lookupAddress } from '../../firewall/address-lookup.ts';
import { addManualBan } from '../../firewall/bans/index.ts';
import { openTempDb } from '../../test-support/temp-db.ts';
import { addressLookup } from './contract.ts';
import { useTestServer } from '../../test-support/server.ts';
import { FIREWALL } from '../../test-support/v3-paths.ts';

describe('firewall:lookup remembers: recent ended bans, whitelist comment and end, errors in words', () => {
  // Workers stamp bans with the real time: the test clock starts there.
  const t = useTestServer();
  const post = async (path: string, body: unknown) => {
    const answer = await t.call(`${FIREWALL}:${path}`, { method: 'POST', body });
    assert.ok(answer.status < 300, `${path}: ${answer.status} ${answer.text}`);
  };
  const lookup = async (ip: string) => {
    const answer = await t.call(`${FIREWALL}:lookup?ip=${encodeURIComponent(ip)}`);
    assert.equal(answer.status, 200, answer.text);
    return addressLookup.parse(answer.json.data);
  };

  test('a lifted ban is remembered: banned when and by whom, lifted when and by whom; a lifted range too', async () => {
    await post('banIp', { ip: '198.51.100.23', duration: 3600, reason: 'SIP scanner' });
    await post('unbanIp', { ip: '198.51.100.23' });
    await post('banIp', { ip: '198.51.100.0/24', duration: 600, reason: 'Toll fraud range' });
    await post('unbanIp', { ip: '198.51.100.0/24' });
    const answer = await lookup('198.51.100.23');
    assert.equal(answer.blocked, false);
    assert.deepEqual(answer.decisions, []);
    assert.deepEqual(
      answer.history.map((b) => [b.value, b.category, b.reason, b.bannedBy, b.ended, b.liftedBy]),
      [
        ['198.51.100.0/24', 'manual', 'Toll fraud range', 'localhost', 'lifted', 'localhost'],
        ['198.51.100.23', 'manual', 'SIP scanner', 'localhost', 'lifted', 'localhost'],
      ],
    );
    for (const past of answer.history) assert.ok(Date.parse(past.endedAt) >= Date.parse(past.bannedAt));
    assert.deepEqual(
      (await lookup('198.51.100.99')).history.map((b) => b.value),
      ['198.51.100.0/24'],
    );
    assert.deepEqual((await lookup('203.0.113.1')).history, [], 'an address never banned has no history');
  });

  test('a whitelist entry shows its comment and end', async () => {
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await post('unbanAndWhitelist', { ip: '203.0.113.50', comment: 'Branch office NAT', until });
    const protection = (await lookup('203.0.113.50')).protections.find((p) => p.kind === 'whitelist');
    assert.deepEqual(
      { ...protection, until: Date.parse(protection!.until!) },
      { kind: 'whitelist', value: '203.0.113.50', comment: 'Branch office NAT', until: Date.parse(until) },
    );
  });

  test('a malformed address is refused in words, without the parser terms', async () => {
    const cases: Array<[string, RegExp]> = [
      ['hello', /^"hello" is not an address: type one IPv4 or IPv6 address, e.g. 198\.51\.100\.7/],
      ['', /^Type the address to look up/],
      ['10.0.0.0/8', /^10\.0\.0\.0\/8 is a range: type one address inside it/],
      ['1'.repeat(65), /too long for an address/],
    ];
    for (const [ip, message] of cases) {
      const answer = await t.call(`${FIREWALL}:lookup?ip=${encodeURIComponent(ip)}`);
      assert.equal(answer.status, 400, ip);
      const text = answer.json.messages.error.join(' ');
      assert.match(text, message);
      assert.doesNotMatch(text, /prefix, no zone|IPv4 or IPv6 address \(/);
    }
  });
});

test('a ban that ran out reads "expired" with no one lifting it; a ban in force is not history', () => {
  // Workers read the real time: the lookup itself takes `now`, so the time is moved here.
  const temp = openTempDb('pbx-lookup-history-');
  try {
    const at = 1_700_000_000_000;
    addManualBan(temp.db, { value: '192.0.2.44', seconds: 60, reason: 'short', services: null, by: 'admin' }, at);
    const during = lookupAddress(temp.db, at + 30_000, '192.0.2.44');
    assert.ok(during.ok);
    assert.equal(during.lookup.decisions.length, 1);
    assert.deepEqual(during.lookup.history, [], 'in force: a decision, not history');
    const after = lookupAddress(temp.db, at + 61_000, '192.0.2.44');
    assert.ok(after.ok);
    assert.deepEqual(after.lookup.history, [
      {
        value: '192.0.2.44',
        category: 'manual',
        reason: 'short',
        bannedBy: 'admin',
        bannedAt: new Date(at).toISOString(),
        endedAt: new Date(at + 60_000).toISOString(),
        ended: 'expired',
        liftedBy: null,
      },
    ]);
  } finally {
    temp.dispose();
  }
});

test('its own ended ban is never crowded out by newer ranges elsewhere; a wide range (/7) that held it is found', () => {
  const temp = openTempDb('pbx-lookup-history-');
  try {
    const at = 1_700_000_000_000;
    const ban = (value: string, when: number) =>
      addManualBan(temp.db, { value, seconds: 60, reason: value, services: null, by: 'admin' }, when);
    ban('9.1.2.3', at);
    ban('8.0.0.0/7', at + 1000);
    // 600 ranges that ended later, none holding the address (read by the ip index, not all of them).
    for (let i = 0; i < 600; i++) ban(`20.${i >> 8}.${i & 255}.0/24`, at + 2000 + i);
    const answer = lookupAddress(temp.db, at + 3_600_000, '9.1.2.3');
    assert.ok(answer.ok);
    assert.deepEqual(
      answer.lookup.history.map((b) => b.value),
      ['8.0.0.0/7', '9.1.2.3'],
    );
  } finally {
    temp.dispose();
  }
});
