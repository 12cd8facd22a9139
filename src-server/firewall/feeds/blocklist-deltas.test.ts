import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RouterOsModel } from '../../test-support/routeros-model.ts';
import type { ActiveBan } from '../bans/index.ts';
import { blocklistEntries, parseBlocklistQuery, type BlocklistEntry, type BlocklistOptions } from './blocklist.ts';
import { feedCursorVariable as cursorVariable } from '../../../src-shared/formats.ts';
import { routerTimeout } from './blocklist-formats.ts';
import { FeedCursors, FULL_EVERY_MS, mikrotikAnswer } from './blocklist-deltas.ts';
import { MANUAL_SCENARIO, type DecisionKey } from '../model/index.ts';

const START = 1_700_000_000_000;
const KEY = 7;

/** The published decisions: filter entries and bans, as the snapshot's members. */
class Published {
  readonly filters = new Set<string>();
  readonly bans = new Map<string, ActiveBan>();
  private id = 1;

  ban(ip: string, category: ActiveBan['category'], at: number, seconds: number): void {
    this.bans.set(ip, { id: this.id++, ip, category, reason: '', bannedAt: at, expiresAt: at + seconds * 1000 });
  }

  members() {
    const out = new Map<string, { key: DecisionKey; filterRefs: number; ban: ActiveBan | undefined }>();
    for (const value of this.filters)
      out.set(`f ${value}`, { key: { value, scenario: MANUAL_SCENARIO }, filterRefs: 1, ban: undefined });
    for (const b of this.bans.values()) {
      const key = { value: b.ip, scenario: `pbx/${b.category}` as DecisionKey['scenario'] };
      out.set(`b ${b.ip}`, { key, filterRefs: 0, ban: b });
    }
    return out.values();
  }

  entries(options: BlocklistOptions, now: number): BlocklistEntry[] {
    return blocklistEntries(this.members(), [], options, now);
  }
}

const mikrotikOptions = (query: Record<string, string> = {}): BlocklistOptions => {
  const parsed = parseBlocklistQuery({ format: 'mikrotik', ...query });
  assert.ok(parsed.ok);
  return parsed.options;
};

/** A router that fetches `since=<its :global>` and imports the answer. */
function fetchInto(
  router: RouterOsModel,
  cursors: FeedCursors,
  published: Published,
  options: BlocklistOptions,
  now: number,
  apply = true,
) {
  const since = router.globals.get(cursorVariable(options.listname));
  const entries = published.entries(options, now);
  const answer = mikrotikAnswer(cursors, { keyId: KEY, since }, options, entries, now);
  if (apply) router.run(answer.text, now);
  return { ...answer, entries };
}

/** The router's list equals what the key should hold now: every entry with a second or more left, its scenario, its end. */
function assertMirrors(router: RouterOsModel, entries: BlocklistEntry[], list: string, now: number): void {
  const expected = new Map<string, string>();
  for (const entry of entries) if (routerTimeout(entry, now)) expected.set(entry.value, entry.scenario);
  const held = new Map([...router.entries('ip', list, now), ...router.entries('ipv6', list, now)]);
  assert.deepEqual(held, expected);
  for (const entry of entries) {
    if (entry.expiresAt === null || !expected.has(entry.value)) continue;
    const menu = entry.value.includes(':') ? 'ipv6' : 'ip';
    assert.equal(router.endsAt(menu, list, entry.value), entry.expiresAt, `${entry.value}: its router timeout`);
  }
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure replays. */
function random(seed: number) {
  return (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

describe('MikroTik delta feed, applied to a model of the router', () => {
  test('1,000 random rounds of bans, lifts, expiries, lost answers and reboots: the router list always mirrors the published set', () => {
    const rnd = random(20260401);
    const options = mikrotikOptions({ listname: 'pbx-blocklist' });
    const list = options.listname;
    const published = new Published();
    const cursors = new FeedCursors();
    let router = new RouterOsModel();
    const address = () => (rnd(4) === 0 ? `2001:db8::${(rnd(60) + 1).toString(16)}` : `198.51.100.${rnd(60) + 1}`);
    let now = START;
    let lastFetch = { ...fetchInto(router, cursors, published, options, now), at: now };
    const kinds = { full: 0, delta: 0 };
    for (let round = 0; round < 1000; round++) {
      // Changes between two fetches: new bans, longer bans of the same address, lifts, filter entries.
      for (let change = rnd(4); change > 0; change--) {
        const what = rnd(10);
        if (what < 5) published.ban(address(), rnd(2) ? 'sip' : 'ami', now, 1 + rnd(900));
        else if (what < 7) published.bans.delete([...published.bans.keys()][rnd(published.bans.size)] ?? '');
        else if (what < 8) published.filters.add(rnd(2) ? `203.0.113.${rnd(20) * 4}/30` : '2001:db8:f::/48');
        else if (what < 9) published.filters.delete([...published.filters][rnd(published.filters.size)] ?? '');
        else published.bans.clear();
      }
      const next = now + (1 + rnd(120)) * 1000;
      // Between two fetches, whatever the last answer listed and is still published is on the router.
      for (const at of [now + rnd(next - now), next - 1]) {
        const still = new Set(published.entries(options, at).map((e) => e.value));
        const held = new Set([...router.entries('ip', list, at).keys(), ...router.entries('ipv6', list, at).keys()]);
        for (const entry of lastFetch.entries) {
          const listed = entry.expiresAt === null || entry.expiresAt > at;
          if (listed && still.has(entry.value) && routerTimeout(entry, lastFetch.at) && router.globals.size > 0)
            assert.ok(held.has(entry.value), `round ${round}: ${entry.value} absent at +${at - now} ms`);
        }
      }
      now = next;
      if (round % 97 === 96) router = new RouterOsModel(); // a reboot: timed entries and globals are gone
      if (round === 500) now += FULL_EVERY_MS; // a day later: filter entries' long timeouts are renewed
      const lost = rnd(20) === 0; // the answer never reached the router
      const fetched = fetchInto(router, cursors, published, options, now, !lost);
      if (lost) continue;
      if (router.ran.swap) kinds.full++;
      else kinds.delta++;
      assertMirrors(router, fetched.entries, list, now);
      lastFetch = { ...fetched, at: now };
    }
    // Most answers are deltas; full ones after reboots, lost answers past the kept states, the daily renewal.
    assert.ok(kinds.delta > 850, JSON.stringify(kinds));
    assert.ok(kinds.full >= 11, JSON.stringify(kinds));
  });

  test('35,000 entries and one change: the delta is under 2 KB, the full list swap-loads and is never emptied while it loads', () => {
    const options = mikrotikOptions();
    const published = new Published();
    for (let i = 0; i < 35_000; i++)
      published.ban(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 'sip', START, 3600 + (i % 600));
    const cursors = new FeedCursors();
    const router = new RouterOsModel();
    const full = fetchInto(router, cursors, published, options, START);
    assert.equal(router.ran.swap, 2, 'each family swapped in once, after all its entries were loaded');
    assert.equal(router.ran.call, 35_000);
    assert.equal(router.ran.removeList, 2, 'only the loading lists are emptied');
    assertMirrors(router, full.entries, 'CrowdSec', START);

    published.ban('192.0.2.1', 'ami', START + 60_000, 600);
    published.bans.delete('10.0.0.9');
    const delta = fetchInto(router, cursors, published, options, START + 60_000);
    assert.ok(Buffer.byteLength(delta.text) < 2048, `${Buffer.byteLength(delta.text)} bytes`);
    assert.deepEqual(router.ran, { upsert: 1, removeOne: 1, setGlobal: 1 });
    assertMirrors(router, delta.entries, 'CrowdSec', START + 60_000);

    // Nothing changed: the same cursor comes back with nothing to do.
    const quiet = fetchInto(router, cursors, published, options, START + 120_000);
    assert.equal(quiet.token, delta.token);
    assert.deepEqual(router.ran, { setGlobal: 1 });
  });

  test('an unknown, malformed or forgotten cursor (resync, deleted key) gets the full list, which a router runs like any other', () => {
    const options = mikrotikOptions({ ipv4only: '', listname: 'edge.v4' });
    const published = new Published();
    published.ban('192.0.2.7', 'sip', START, 600);
    published.ban('2001:db8::7', 'sip', START, 600);
    published.filters.add('198.51.100.0/24');
    const cursors = new FeedCursors();
    for (const since of ['never-issued', 'x"]; /system reboot', '', 'a'.repeat(500)]) {
      const router = new RouterOsModel();
      router.globals.set(cursorVariable('edge.v4'), since);
      const answer = fetchInto(router, cursors, published, options, START);
      assert.equal(router.ran.swap, 1, `since=${since.slice(0, 20)}: a full answer`);
      assertMirrors(router, answer.entries, 'edge.v4', START);
      assert.deepEqual([...router.entries('ip', 'edge.v4', START).keys()], ['192.0.2.7', '198.51.100.0/24']);
    }
    const router = new RouterOsModel();
    fetchInto(router, cursors, published, options, START);
    fetchInto(router, cursors, published, options, START + 1000);
    assert.equal(router.ran.swap, undefined, 'a known cursor: a delta');
    cursors.forgetKey(KEY);
    fetchInto(router, cursors, published, options, START + 2000);
    assert.equal(router.ran.swap, 1, 'after a resync: full');
    cursors.keepOnly(new Set([KEY]));
    fetchInto(router, cursors, published, options, START + 3000);
    assert.equal(router.ran.swap, undefined, 'its key still exists: a delta');
    cursors.keepOnly(new Set([KEY + 1]));
    fetchInto(router, cursors, published, options, START + 4000);
    assert.equal(router.ran.swap, 1, 'what was sent to a deleted key is dropped');
  });
});
