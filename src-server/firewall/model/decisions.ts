import { crc32 } from 'node:zlib';

import type { BanCategory } from '../../../src-shared/categories.ts';
import { IPSET_MAX_TIMEOUT_SECONDS } from '../../../src-shared/setting-bounds.ts';

export { BAN_CATEGORIES, type BanCategory, type BanKind } from '../../../src-shared/categories.ts';

export const MANUAL_SCENARIO = 'pbx/manual';

/**
 * The longest duration any decision carries: ipset's maximum timeout (2147483 s, about 24.8 days).
 * The firewall bouncer's iptables mode warns on every poll about anything longer.
 */
export const MAX_DECISION_SECONDS = IPSET_MAX_TIMEOUT_SECONDS;

/**
 * Filter deny entries never expire on their own. They are published with the longest whole-hour
 * duration under MAX_DECISION_SECONDS, and every poll publishes it afresh: ipset refreshes the
 * timeout on each add, and nftables re-adds an element as soon as it has timed out.
 */
export const MANUAL_DURATION = `${Math.floor(MAX_DECISION_SECONDS / 3600)}h`;
export const MANUAL_DURATION_SECONDS = Math.floor(MAX_DECISION_SECONDS / 3600) * 3600;

export type Scenario = `pbx/${BanCategory}` | typeof MANUAL_SCENARIO;

/** The identity of a decision: decisions are unique by (value, scenario); the id is only a label. */
export interface DecisionKey {
  value: string;
  /** `pbx/...` for this PBX's own decisions; an upstream LAPI's scenario for the decisions it republishes. */
  scenario: Scenario | (string & {});
  /** Set only for republished upstream decisions (`crowdsec`, `cscli`, `CAPI`...): their origin is kept. */
  origin?: string;
}

/**
 * Strings a published decision keeps for as long as it lasts are built with `join`: V8 keeps a string
 * made by `+` or a template as a rope (a 32-byte cell per join, holding every piece), which cost
 * about 60 MB at 200,000 decisions; `join` gives one flat string.
 */
const flat = (...pieces: Array<string | number>): string => pieces.join('');

/** The identity as one string, for maps and sets (a space never occurs in an address or scenario). */
export const identityOf = (key: DecisionKey): string => flat(key.scenario, ' ', key.value);

/** SPEC: crc32(value + scenario) & 0x7fffffff (Node's zlib.crc32, available since 20.15). Two decisions may share it. */
export function decisionId(value: string, scenario: string): number {
  return crc32(value + scenario) & 0x7fffffff;
}

export const originOf = (scenario: string) => (scenario === MANUAL_SCENARIO ? 'pbx-networkfilters' : 'pbx-fail2ban');
/** A decision's origin: its own (upstream decisions), or the one its scenario implies. */
export const originOfKey = (key: DecisionKey) => key.origin ?? originOf(key.scenario);
export const scopeOf = (value: string) => (value.includes('/') ? 'Range' : 'Ip');

/** A decision's JSON split around its duration: a snapshot rebuild only concatenates `head + duration + tail`. */
export interface DecisionParts {
  id: number;
  head: string;
  tail: string;
}

/** Field order follows the SPEC table. */
export function decisionParts(key: DecisionKey): DecisionParts {
  const id = decisionId(key.value, key.scenario);
  const head = flat(
    '{"id":',
    id,
    ',"origin":',
    JSON.stringify(originOfKey(key)),
    ',"type":"ban","scope":"',
    scopeOf(key.value),
    '","value":',
    JSON.stringify(key.value),
    ',"duration":"',
  );
  return { id, head, tail: tailOf(key.scenario) };
}

/** Tails by scenario: every decision of a scenario shares one string (a few scenarios, 200,000 decisions). */
const tails = new Map<string, string>();
/** Upstream scenarios are free text: past this many, a tail is built per decision rather than kept. */
const MAX_SHARED_TAILS = 1000;

function tailOf(scenario: string): string {
  const shared = tails.get(scenario);
  if (shared !== undefined) return shared;
  // Upstream scenarios are free text (`manual 'ban' from 'cli'`): escaped like any JSON string.
  const tail = flat('","scenario":', JSON.stringify(scenario), '}');
  if (tails.size < MAX_SHARED_TAILS) tails.set(scenario, tail);
  return tail;
}

/** Whole seconds left, at least 1 (ARCHITECTURE "Decisions from bans") and at most MAX_DECISION_SECONDS. */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.min(MAX_DECISION_SECONDS, Math.max(1, Math.ceil((expiresAt - now) / 1000)));
}

/**
 * The JSON of a decision listed in `deleted`: whatever it was (ban or filter entry), nothing is
 * left of it, so its duration is `0s` (docs/firewall.md "Durations").
 */
export function deletedDecisionJson(key: DecisionKey): string {
  const { head, tail } = decisionParts(key);
  return head + '0s' + tail;
}
