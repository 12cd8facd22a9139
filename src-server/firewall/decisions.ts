import { crc32 } from 'node:zlib';

/** Automatic-ban categories (SPEC scenario `pbx/<category>`). */
export const BAN_CATEGORIES = ['sip', 'http', 'ami', 'iax'] as const;
export type BanCategory = (typeof BAN_CATEGORIES)[number];

export const MANUAL_SCENARIO = 'pbx/manual';
/** Filter deny entries never expire on their own; they are published with a one-year duration. */
export const MANUAL_DURATION = '8760h';

export type Scenario = `pbx/${BanCategory}` | typeof MANUAL_SCENARIO;

/** The identity of a decision: what the decision id is computed from. */
export interface DecisionKey {
  value: string;
  scenario: Scenario;
}

/** SPEC: crc32(value + scenario) & 0x7fffffff (Node's zlib.crc32, available since 20.15). */
export function decisionId(value: string, scenario: string): number {
  return crc32(value + scenario) & 0x7fffffff;
}

export const originOf = (scenario: string) => (scenario === MANUAL_SCENARIO ? 'pbx-networkfilters' : 'pbx-fail2ban');
export const scopeOf = (value: string) => (value.includes('/') ? 'Range' : 'Ip');

/**
 * A decision's JSON split around its duration, so a snapshot rebuild only concatenates
 * `head + duration + tail` instead of serialising objects again. Field order follows the SPEC table.
 */
export function decisionParts(key: DecisionKey): { id: number; head: string; tail: string } {
  const id = decisionId(key.value, key.scenario);
  const head =
    `{"id":${id},"origin":"${originOf(key.scenario)}","type":"ban","scope":"${scopeOf(key.value)}",` +
    `"value":${JSON.stringify(key.value)},"duration":"`;
  return { id, head, tail: `","scenario":"${key.scenario}"}` };
}

/** Whole seconds left, at least 1 (ARCHITECTURE "Decisions from bans"). */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(1, Math.ceil((expiresAt - now) / 1000));
}

/**
 * The JSON of a decision listed in `deleted`: a ban has nothing left (`0s`), a filter entry keeps
 * its fixed duration.
 */
export function deletedDecisionJson(key: DecisionKey): string {
  const { head, tail } = decisionParts(key);
  return head + (key.scenario === MANUAL_SCENARIO ? MANUAL_DURATION : '0s') + tail;
}
