import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAIL2BAN_SETTING_KEY } from '../firewall/filters/index.ts';
import type { Db } from '../storage/database.ts';
import { CROWDSEC_LINK_SETTING_KEY } from '../storage/migrations/070-crowdsec-link.ts';
import { writeSetting } from '../storage/settings.ts';
import { PULL_FROM_NOWHERE, storeUpstreamDecisions, type UpstreamRow } from '../test-support/crowdsec-link.ts';
import { startTestServer } from '../test-support/server.ts';
import { countRowsRead } from '../test-support/rows-read.ts';
import { openTempDb } from '../test-support/temp-db.ts';
import { listUpstreamBans, UPSTREAM_LIST_LIMIT } from './upstream-bans.ts';

const V3 = '/pbxcore/api/v3/';
const NOW = 1_700_000_000_000;
const DECISIONS = 100_000;

/** The address of decision `i`: 10.x.y.z, distinct for every i below 2^24. */
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/**
 * What the puller keeps after pulling a 100k-decision community list: one decision per address,
 * a second (longer) decision for every 10th, some ended, a few ranges; the whitelist protects
 * 10.0.0.0/24 (256 addresses) and a trusted range is not involved.
 */
function fill(db: Db): void {
  writeSetting(db, CROWDSEC_LINK_SETTING_KEY, {
    enabled: true,
    url: 'http://127.0.0.1:9/',
    pullEnabled: true,
    bouncerKey: 'k'.repeat(40),
  });
  writeSetting(db, FAIL2BAN_SETTING_KEY, { whitelist: '10.0.0.0/24' });
  storeUpstreamDecisions(
    db,
    (function* (): Generator<UpstreamRow> {
      let id = 1;
      for (let i = 0; i < DECISIONS; i++) {
        // Ends spread over a day; every 50th has already ended.
        const ends = i % 50 === 49 ? NOW - 1000 : NOW + 60_000 + ((i * 7919) % 86_400) * 1000;
        yield [id++, addressOf(i), 'crowdsecurity/ssh-bf', 'CAPI', ends];
        if (i % 10 === 0) yield [id++, addressOf(i), 'manual', 'cscli', ends + 3600_000];
      }
      yield [id++, '198.51.100.0/24', 'manual', 'cscli', NOW + 7 * 86_400_000];
      // A range that touches the whitelist is protected whole.
      yield [id++, '10.0.0.0/16', 'manual', 'cscli', NOW + 7 * 86_400_000];
    })(),
  );
}

test('listing 100,000 upstream decisions: one page read and checked, every one counted', () => {
  const temp = openTempDb('pbx-upstream-bans-');
  try {
    fill(temp.db);
    const reader = temp.connect();
    // Counted and paged in SQL: only the page and the values a protected range could hold reach
    // JavaScript, never the 100,000 (judging them all took 2.2 s; the time is bench/queries.ts's).
    const { result: listed, rows } = countRowsRead(reader, () => listUpstreamBans(reader, NOW));
    assert.ok(rows < 5 * UPSTREAM_LIST_LIMIT, `${rows} rows read for one page of ${UPSTREAM_LIST_LIMIT}`);
    const { bans, total } = listed;

    const ended = DECISIONS / 50;
    // 10.0.0.0/24 in force (the ended ones among them are not counted twice); the /16 is protected, the other range counts.
    const protectedAddresses = Array.from({ length: 256 }, (_, i) => i).filter((i) => i % 50 !== 49).length;
    assert.equal(total, DECISIONS - ended - protectedAddresses + 1, 'every enforced value counted once');
    assert.equal(bans.length, UPSTREAM_LIST_LIMIT);
    assert.equal(bans[0]!.ip, '198.51.100.0/24', 'longest-lasting first');
    assert.ok(
      bans.every((ban, i) => i === 0 || Date.parse(bans[i - 1]!.expiresAt) >= Date.parse(ban.expiresAt)),
      'in order of their end',
    );
    assert.ok(!bans.some((ban) => ban.ip.startsWith('10.0.0.') || ban.ip === '10.0.0.0/16'), 'the whitelist wins');
    assert.equal(new Set(bans.map((b) => b.ip)).size, bans.length, 'one row per value');
    const second = bans.find((b) => b.ip === addressOf(10));
    if (second) assert.equal(second.upstream.scenario, 'manual', 'a value shows its longest decision');

    const next = listUpstreamBans(reader, NOW, UPSTREAM_LIST_LIMIT, UPSTREAM_LIST_LIMIT);
    assert.equal(next.total, total);
    assert.equal(next.bans[0]!.ip !== bans[0]!.ip, true, 'the next page follows');
    assert.ok(Date.parse(next.bans[0]!.expiresAt) <= Date.parse(bans.at(-1)!.expiresAt));
  } finally {
    temp.dispose();
  }
});

test('"Why is this address blocked?" shows the upstream decisions enforced on it: its own and a range’s, not liftable here', async () => {
  const pbx = await startTestServer();
  try {
    const saved = await pbx.call(`${V3}crowdsec-link`, { method: 'PUT', body: PULL_FROM_NOWHERE });
    assert.equal(saved.status, 200, saved.text);
    const now = Date.now();
    storeUpstreamDecisions(pbx.server.services.db, [
      [9001, '203.0.113.9', 'crowdsecurity/ssh-bf', 'CAPI', now + 3600_000],
      [9002, '203.0.113.9', "manual 'ban' from 'cli'", 'cscli', now + 7200_000],
      [9003, '203.0.113.0/24', 'crowdsecurity/http-probing', 'crowdsec', now + 600_000],
      [9004, '203.0.113.10', 'crowdsecurity/ssh-bf', 'CAPI', now - 1000], // ended
    ]);

    const lookup = async (ip: string) => {
      const answer = await pbx.call(`${V3}firewall:lookup?ip=${ip}`);
      assert.equal(answer.status, 200, answer.text);
      return answer.json.data as {
        blocked: boolean;
        decisions: Array<{
          value: string;
          source: string;
          origin: string;
          scenario: string;
          secondsLeft: number;
          upstream?: unknown;
        }>;
      };
    };
    const found = await lookup('203.0.113.9');
    assert.equal(found.blocked, true);
    assert.deepEqual(
      found.decisions.map((d) => [d.source, d.value, d.origin, d.scenario, d.upstream]),
      [
        [
          'upstream',
          '203.0.113.9',
          'cscli',
          "manual 'ban' from 'cli'",
          { origin: 'cscli', scenario: "manual 'ban' from 'cli'", liftable: false },
        ],
        [
          'upstream',
          '203.0.113.0/24',
          'crowdsec',
          'crowdsecurity/http-probing',
          { origin: 'crowdsec', scenario: 'crowdsecurity/http-probing', liftable: false },
        ],
      ],
      'the longest decision of each value that holds it',
    );
    assert.ok(found.decisions[0]!.secondsLeft > 7100 && found.decisions[0]!.secondsLeft <= 7200);

    const onlyRange = await lookup('203.0.113.10');
    assert.deepEqual(
      onlyRange.decisions.map((d) => d.value),
      ['203.0.113.0/24'],
      'an ended decision does not count',
    );
    assert.deepEqual((await lookup('198.51.100.1')).decisions, [], 'an address nothing covers');

    // The whitelist wins over upstream: the address is no longer blocked by it (and the range is refused whole).
    const whitelisted = await pbx.call(`${V3}fail2ban`, { method: 'PATCH', body: { whitelist: '203.0.113.9' } });
    assert.equal(whitelisted.status, 200, whitelisted.text);
    const kept = await lookup('203.0.113.9');
    assert.equal(kept.blocked, false);
    assert.deepEqual(kept.decisions, []);
  } finally {
    await pbx.close();
  }
});
