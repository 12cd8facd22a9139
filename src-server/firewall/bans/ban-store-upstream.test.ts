import assert from 'node:assert/strict';
import { test } from 'node:test';
import { banDecisionKey, BanStore, type ActiveBan, type BanChange } from './ban-store.ts';
import { openTempDb } from '../../test-support/temp-db.ts';

const upstreamBan = (value: string, expiresAt: number): ActiveBan => ({
  id: -7,
  category: 'upstream',
  ip: value,
  reason: 'cscli: manual',
  bannedAt: 0,
  expiresAt,
  origin: 'cscli',
  scenario: "manual 'ban' from 'cli'",
});

test('upstream bans: refused by the guard, published only when asked, kept across reloads, never in firewall_bans', () => {
  const { db, dispose } = openTempDb('pbx-ban-store-');
  try {
    let now = 1_000_000;
    const store = new BanStore(db, { now: () => now });
    const changes: BanChange[] = [];
    store.onChange((change) => changes.push(change));

    store.setUpstream([{ value: '192.0.2.10', ban: upstreamBan('192.0.2.10', now + 60_000) }], false);
    assert.equal(store.isBanned('192.0.2.10'), true);
    assert.equal(store.isUpstreamPublished('192.0.2.10'), false);
    assert.equal(changes.length, 0, 'a guard-only ban is not a change of the published set');

    store.setUpstream([{ value: '198.51.100.0/24', ban: upstreamBan('198.51.100.0/24', now + 60_000) }], true);
    assert.equal(store.isBanned('198.51.100.9'), true, 'a range holds its addresses');
    assert.equal(store.isUpstreamPublished('198.51.100.0/24'), true);
    assert.equal(changes.at(-1)!.added[0]!.ip, '198.51.100.0/24');
    assert.deepEqual(banDecisionKey(changes.at(-1)!.added[0]!), {
      value: '198.51.100.0/24',
      scenario: "manual 'ban' from 'cli'",
      origin: 'cscli',
    });

    store.reload();
    assert.equal(store.isBanned('198.51.100.9'), true, 'a reload keeps the published upstream bans');
    assert.equal(store.isBanned('192.0.2.10'), true, 'and the guard-only ones');
    store.reloadIp('198.51.100.0/24');
    assert.equal(store.isUpstreamPublished('198.51.100.0/24'), true, 'a worker re-read of the value keeps it');
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM firewall_bans').get() as { n: number }).n, 0);

    store.setUpstream([{ value: '198.51.100.0/24', ban: undefined }], true);
    assert.equal(store.isBanned('198.51.100.9'), false);
    assert.equal(changes.at(-1)!.removed[0]!.ip, '198.51.100.0/24');
    now += 60_000;
    assert.equal(store.isBanned('192.0.2.10'), false, 'expiry is judged at read time');
  } finally {
    dispose();
  }
});
