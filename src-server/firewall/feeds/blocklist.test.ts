import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCidr } from '../../net/cidr.ts';
import type { ActiveBan } from '../bans/index.ts';
import { blocklistEntries, entryDuration, parseBlocklistQuery, type BlocklistOptions } from './blocklist.ts';
import { renderBlocklist } from './blocklist-formats.ts';
import { type DecisionKey, MANUAL_SCENARIO } from '../model/index.ts';

const NOW = 1_700_000_000_000;
/** Published members as the snapshot keeps them: one per (value, scenario), from filter entries and bans. */
function members(filterValues: string[], bans: ActiveBan[]) {
  const out = new Map<string, { key: DecisionKey; filterRefs: number; ban: ActiveBan | undefined }>();
  for (const value of filterValues)
    out.set(`${MANUAL_SCENARIO} ${value}`, {
      key: { value, scenario: MANUAL_SCENARIO },
      filterRefs: 1,
      ban: undefined,
    });
  for (const b of bans) {
    const scenario = `pbx/${b.category}` as DecisionKey['scenario'];
    const known = out.get(`${scenario} ${b.ip}`);
    if (known) known.ban = b;
    else out.set(`${scenario} ${b.ip}`, { key: { value: b.ip, scenario }, filterRefs: 0, ban: b });
  }
  return out.values();
}
let nextId = 1;
const ban = (ip: string, category: ActiveBan['category'], seconds: number): ActiveBan => ({
  id: nextId++,
  category,
  ip,
  reason: '',
  bannedAt: NOW,
  expiresAt: NOW + seconds * 1000,
});
const options = (query: Record<string, string> = {}): BlocklistOptions => {
  const parsed = parseBlocklistQuery(query);
  assert.ok(parsed.ok);
  return parsed.options;
};

// One decision of each kind: a filter range, an IPv4 intrusion ban, an IPv6 ban, a manual range ban.
const FILTERS = ['198.51.100.0/24'];
const BANS = [ban('203.0.113.9', 'sip', 593), ban('2001:db8::7', 'http', 120), ban('2001:db8:1::/48', 'manual', 3600)];
const entries = (query: Record<string, string> = {}, whitelist: string[] = []) =>
  blocklistEntries(
    members(FILTERS, BANS),
    whitelist.map((w) => parseCidr(w)!),
    options(query),
    NOW,
  );
const render = (query: Record<string, string> = {}) => renderBlocklist(entries(query), options(query), NOW);

describe('blocklist feed formats (golden, from cs-blocklist-mirror pkg/formatters)', () => {
  test('plain_text: one value per line, sorted by value', () => {
    assert.equal(render(), '198.51.100.0/24\n2001:db8:1::/48\n2001:db8::7\n203.0.113.9\n');
  });

  test('f5: address,mask,bl,category (IPv6 single address /64 as in the original)', () => {
    assert.equal(
      render({ format: 'f5' }),
      '198.51.100.0,24,bl,manual\n2001:db8:1::,48,bl,manual\n2001:db8::7,64,bl,http\n203.0.113.9,32,bl,sip\n',
    );
  });

  test('juniper: every entry as a CIDR', () => {
    assert.equal(render({ format: 'juniper' }), '198.51.100.0/24\n2001:db8:1::/48\n2001:db8::7/128\n203.0.113.9/32\n');
  });

  test('mikrotik: the template output, loading into a second list then swapping it in, both families', () => {
    const expected = `
/ip/firewall/address-list/remove [ find where list="CrowdSec-load" ];
:global CrowdSecAddIP;
:set CrowdSecAddIP do={
    :do { /ip/firewall/address-list/add list=CrowdSec-load address=$1 comment="$2" timeout=$3; } on-error={ }
}

/ipv6/firewall/address-list/remove [ find where list="CrowdSec-load" ];
:global CrowdSecAddIPv6;
:set CrowdSecAddIPv6 do={
    :do { /ipv6/firewall/address-list/add list=CrowdSec-load address=$1 comment="$2" timeout=$3; } on-error={ }
}
$CrowdSecAddIP "198.51.100.0/24" "pbx/manual" "596h"
$CrowdSecAddIPv6 "2001:db8:1::/48" "pbx/manual" "3600s"
$CrowdSecAddIPv6 "2001:db8::7" "pbx/http" "120s"
$CrowdSecAddIP "203.0.113.9" "pbx/sip" "593s"

/ip/firewall/address-list/remove [ find where list="CrowdSec" ]; /ip/firewall/address-list/set [ find where list="CrowdSec-load" ] list=CrowdSec;
/ipv6/firewall/address-list/remove [ find where list="CrowdSec" ]; /ipv6/firewall/address-list/set [ find where list="CrowdSec-load" ] list=CrowdSec;
:set CrowdSecAddIP;
:set CrowdSecAddIPv6;
`;
    assert.equal(render({ format: 'mikrotik' }), expected);
  });

  test('mikrotik: a timeout is never longer than the time left; an entry with under a second left is left out', () => {
    const list = blocklistEntries(
      members([], [ban('192.0.2.1', 'sip', 592.3), ban('192.0.2.2', 'sip', 0.4)]),
      [],
      options({ format: 'mikrotik' }),
      NOW,
    );
    const script = renderBlocklist(list, options({ format: 'mikrotik' }), NOW);
    assert.match(script, /^\$CrowdSecAddIP "192\.0\.2\.1" "pbx\/sip" "592s"$/m);
    assert.doesNotMatch(script, /192\.0\.2\.2/);
  });

  test('mikrotik: ipv4only with a list name leaves out the IPv6 list and its entries', () => {
    const expected = `
/ip/firewall/address-list/remove [ find where list="pbx-bans-load" ];
:global CrowdSecAddIP;
:set CrowdSecAddIP do={
    :do { /ip/firewall/address-list/add list=pbx-bans-load address=$1 comment="$2" timeout=$3; } on-error={ }
}
$CrowdSecAddIP "198.51.100.0/24" "pbx/manual" "596h"
$CrowdSecAddIP "203.0.113.9" "pbx/sip" "593s"

/ip/firewall/address-list/remove [ find where list="pbx-bans" ]; /ip/firewall/address-list/set [ find where list="pbx-bans-load" ] list=pbx-bans;
:set CrowdSecAddIP;
`;
    assert.equal(render({ format: 'mikrotik', ipv4only: '', listname: 'pbx-bans' }), expected);
  });

  test('mikrotik: ipv6only, and an empty list still empties the router list (by swapping in an empty one)', () => {
    assert.equal(
      render({ format: 'mikrotik', ipv6only: '1' }),
      `
/ipv6/firewall/address-list/remove [ find where list="CrowdSec-load" ];
:global CrowdSecAddIPv6;
:set CrowdSecAddIPv6 do={
    :do { /ipv6/firewall/address-list/add list=CrowdSec-load address=$1 comment="$2" timeout=$3; } on-error={ }
}
$CrowdSecAddIPv6 "2001:db8:1::/48" "pbx/manual" "3600s"
$CrowdSecAddIPv6 "2001:db8::7" "pbx/http" "120s"

/ipv6/firewall/address-list/remove [ find where list="CrowdSec" ]; /ipv6/firewall/address-list/set [ find where list="CrowdSec-load" ] list=CrowdSec;
:set CrowdSecAddIPv6;
`,
    );
    const empty = renderBlocklist(
      blocklistEntries(members([], []), [], options({ format: 'mikrotik' }), NOW),
      options({ format: 'mikrotik' }),
      NOW,
    );
    assert.match(empty, /address-list\/remove \[ find where list="CrowdSec" \]; .*list=CrowdSec;$/m);
    assert.doesNotMatch(empty, /\$CrowdSecAddIP "/);
  });
});

describe('blocklist content', () => {
  test('ipv4only, ipv6only and origin select entries', () => {
    assert.deepEqual(
      entries({ ipv4only: '' }).map((e) => e.value),
      ['198.51.100.0/24', '203.0.113.9'],
    );
    assert.deepEqual(
      entries({ ipv6only: '' }).map((e) => e.value),
      ['2001:db8:1::/48', '2001:db8::7'],
    );
    assert.deepEqual(
      entries({ origin: 'PBX-FAIL2BAN' }).map((e) => e.value),
      ['2001:db8::7', '203.0.113.9'],
    );
    assert.deepEqual(
      entries({ origin: 'pbx-networkfilters' }).map((e) => e.value),
      ['198.51.100.0/24', '2001:db8:1::/48'],
    );
  });

  test('the whitelist is subtracted: a listed address drops out, a range is split around it', () => {
    const values = entries({}, ['203.0.113.9', '198.51.100.0/25', '198.51.100.200']).map((e) => e.value);
    assert.deepEqual(values, [
      '198.51.100.128/26',
      '198.51.100.192/29',
      '198.51.100.201',
      '198.51.100.202/31',
      '198.51.100.204/30',
      '198.51.100.208/28',
      '198.51.100.224/27',
      '2001:db8:1::/48',
      '2001:db8::7',
    ]);
  });

  test('one entry per value: the longest duration wins; expired bans are left out', () => {
    const list = blocklistEntries(
      members([], [ban('192.0.2.1', 'sip', 60), ban('192.0.2.1', 'http', 900), ban('192.0.2.2', 'ami', -5)]),
      [],
      options(),
      NOW,
    );
    assert.deepEqual(
      list.map((e) => [e.value, e.scenario, entryDuration(e, NOW)]),
      [['192.0.2.1', 'pbx/http', '900s']],
    );
    assert.equal(entryDuration(list[0]!, NOW + 300_000), '600s', 'durations are counted when rendered');
  });

  test('a filter entry and a manual ban of the same value: one line, the longer duration, as the stream', () => {
    const permanent = ban('192.0.2.9', 'manual', 10 * 365 * 86_400);
    const short = ban('192.0.2.8', 'manual', 600);
    const list = blocklistEntries(members(['192.0.2.9', '192.0.2.8'], [permanent, short]), [], options(), NOW);
    assert.deepEqual(
      list.map((e) => [e.value, entryDuration(e, NOW)]),
      [
        ['192.0.2.8', '596h'],
        ['192.0.2.9', '2147483s'],
      ],
    );
  });

  test('bad queries: unknown format lists the formats; both families; unsafe list name', () => {
    const unknown = parseBlocklistQuery({ format: 'csv' });
    assert.ok(!unknown.ok && /plain_text, mikrotik, f5, juniper/.test(unknown.message));
    assert.equal(parseBlocklistQuery({ ipv4only: '', ipv6only: '' }).ok, false);
    assert.equal(parseBlocklistQuery({ format: 'mikrotik', listname: 'x"]; /system reboot' }).ok, false);
    assert.equal(parseBlocklistQuery({}).ok, true);
  });
});
