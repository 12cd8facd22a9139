import type ipaddr from 'ipaddr.js';
import { type DecisionKey, normalizeAddress, normalizeCidrText, originOfKey, scopeOf } from '../model/index.ts';
import { parseCidr, type Cidr } from '../../net/cidr.ts';

/** The filters of the CrowdSec LAPI's `GET /v1/decisions`, as that API names them. */
export const DECISION_FILTERS = [
  'scope',
  'scopes',
  'value',
  'ip',
  'range',
  'type',
  'origins',
  'scenarios_containing',
  'scenarios_not_containing',
  'contains',
] as const;

/** A parsed query; every field is optional (no filter lists everything). */
export interface DecisionQuery {
  scopes?: string[];
  value?: string;
  type?: string;
  origins?: string[];
  scenariosContaining?: string[];
  scenariosNotContaining?: string[];
  /** From `ip` or `range`: the decision must contain it (`contains`, the default) or lie within it. */
  range?: { cidr: Cidr; contains: boolean };
}

export type QueryOutcome = { ok: true; query: DecisionQuery } | { ok: false; message: string };

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Parses the query string as the LAPI does: the first value of each parameter, comma lists for
 * `scope(s)`, `origins` and the scenario filters, scopes `ip`/`range` case-insensitive. An unknown
 * parameter or a malformed value is an error (the LAPI refuses them too), never "no filter".
 */
export function parseDecisionQuery(raw: Record<string, string | string[] | undefined>): QueryOutcome {
  const query: DecisionQuery = {};
  let contains = true;
  let target: { text: string; name: string } | undefined;
  for (const [name, given] of Object.entries(raw)) {
    if (given === undefined) continue;
    const value = Array.isArray(given) ? given[0]! : given;
    switch (name) {
      case 'scope':
      case 'scopes':
        query.scopes = list(value).map((s) =>
          s.toLowerCase() === 'ip' ? 'Ip' : s.toLowerCase() === 'range' ? 'Range' : s,
        );
        break;
      case 'value':
        query.value = value;
        break;
      case 'type':
        query.type = value;
        break;
      case 'origins':
        query.origins = list(value);
        break;
      case 'scenarios_containing':
        query.scenariosContaining = list(value).map((s) => s.toLowerCase());
        break;
      case 'scenarios_not_containing':
        query.scenariosNotContaining = list(value).map((s) => s.toLowerCase());
        break;
      case 'contains':
        if (!/^(true|false|1|0)$/i.test(value))
          return { ok: false, message: `contains: "${value.slice(0, 50)}" is not a boolean (true or false).` };
        contains = /^(true|1)$/i.test(value);
        break;
      case 'ip':
      case 'range':
        target = { text: value, name };
        break;
      default:
        return {
          ok: false,
          message: `Unknown filter "${name.slice(0, 50)}"; accepted: ${DECISION_FILTERS.join(', ')}.`,
        };
    }
  }
  if (target) {
    // Canonical text first: an IPv4-mapped IPv6 address asks about its IPv4 address.
    const canonical = target.name === 'ip' ? normalizeAddress(target.text) : normalizeCidrText(target.text);
    const cidr = canonical === undefined ? undefined : parseCidr(canonical);
    if (!cidr) {
      const what = target.name === 'ip' ? 'an IPv4 or IPv6 address' : 'an address or CIDR range';
      return { ok: false, message: `${target.name}: "${target.text.slice(0, 100)}" is not ${what}.` };
    }
    query.range = { cidr, contains };
  }
  return { ok: true, query };
}

/** One decision a query may select: its identity and the range it covers. */
export interface Candidate {
  key: DecisionKey;
  cidr: Cidr;
  json: () => string;
}

function sameFamily(a: Cidr, b: Cidr): boolean {
  return a[0].kind() === b[0].kind();
}

/** Whether range `outer` holds all of range `inner`. */
function holds(outer: Cidr, inner: Cidr): boolean {
  return (
    sameFamily(outer, inner) && outer[1] <= inner[1] && (inner[0] as ipaddr.IPv4).match(outer as [ipaddr.IPv4, number])
  );
}

/** Whether one decision passes every filter of the query. */
export function matches(query: DecisionQuery, candidate: Candidate): boolean {
  const { key, cidr } = candidate;
  if (query.type !== undefined && query.type !== 'ban') return false;
  if (query.scopes && !query.scopes.includes(scopeOf(key.value))) return false;
  if (query.value !== undefined && query.value !== key.value) return false;
  if (query.origins && !query.origins.includes(originOfKey(key))) return false;
  const scenario = key.scenario.toLowerCase();
  if (query.scenariosContaining && !query.scenariosContaining.some((s) => scenario.includes(s))) return false;
  if (query.scenariosNotContaining && query.scenariosNotContaining.some((s) => scenario.includes(s))) return false;
  if (query.range) return query.range.contains ? holds(cidr, query.range.cidr) : holds(query.range.cidr, cidr);
  return true;
}
