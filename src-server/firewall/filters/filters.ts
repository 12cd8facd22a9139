import { parseCidr, type Cidr } from '../../net/cidr.ts';
import { isCatchAll, splitList, unblockableReason } from '../model/index.ts';

import { SERVICE_CATEGORIES, type ServiceCategory } from '../../../src-shared/categories.ts';

/** Rule categories of a network filter that drive this server. WEB is the `http` ban category. */
export const FILTER_CATEGORIES = SERVICE_CATEGORIES;
export type FilterCategory = ServiceCategory;
/**
 * The reference PBX's other service categories: accepted, stored and read back so scripts written
 * for it work, but nothing here acts on them (this server runs no SSH, NTP or TFTP service).
 */
export const STORED_ONLY_CATEGORIES = ['SSH', 'AJAM', 'ICMP', 'NTP', 'TFTP', 'CTICLIENT'] as const;
export type StoredOnlyCategory = (typeof STORED_ONLY_CATEGORIES)[number];
export const RULE_CATEGORIES = [...FILTER_CATEGORIES, ...STORED_ONLY_CATEGORIES] as const;
export type FilterRules = Record<FilterCategory, 'allow' | 'block'> &
  Partial<Record<StoredOnlyCategory, 'allow' | 'block'>>;

/** A network filter in its read shape (ARCHITECTURE "Network filter shape"). */
export interface NetworkFilter {
  id: number;
  permit: string;
  deny: string;
  description: string;
  newer_block_ip: boolean;
  local_network: boolean;
  rules: FilterRules;
}

export const DEFAULT_DENY = '0.0.0.0/0';

/** Every category allowed: what a filter without explicit rules means. */
export function defaultRules(): FilterRules {
  return { SIP: 'allow', WEB: 'allow', AMI: 'allow', IAX: 'allow' };
}

/** Rules from storage, tolerant of missing or malformed entries (they read as allow). */
export function parseRules(text: string): FilterRules {
  const rules = defaultRules();
  try {
    const stored = JSON.parse(text) as Record<string, unknown>;
    for (const category of FILTER_CATEGORIES) if (stored?.[category] === 'block') rules[category] = 'block';
    // Stored-only categories appear only when a client set them.
    for (const category of STORED_ONLY_CATEGORIES) {
      if (stored?.[category] === 'allow' || stored?.[category] === 'block') rules[category] = stored[category];
    }
  } catch {
    // A corrupt value reads as the default; the next save rewrites it.
  }
  return rules;
}

/** The ranges of a filter's deny list (invalid entries, which the writer never stores, are skipped). */
export function denyRanges(filter: Pick<NetworkFilter, 'deny'>): Array<{ text: string; cidr: Cidr }> {
  const out: Array<{ text: string; cidr: Cidr }> = [];
  for (const text of splitList(filter.deny)) {
    const cidr = parseCidr(text);
    if (cidr) out.push({ text, cidr });
  }
  return out;
}

/**
 * Deny values that become `pbx/manual` decisions: not the catch-all `0.0.0.0/0` / `::/0` and not
 * covering the host's loopback or an unspecified address (a save refuses them; older rows may hold
 * them). Deduplicated, in filter and list order.
 */
export function manualBanValues(filters: readonly NetworkFilter[]): string[] {
  const seen = new Set<string>();
  for (const filter of filters) {
    for (const { text, cidr } of denyRanges(filter)) {
      if (isCatchAll(cidr) || unblockableReason(cidr)) continue;
      seen.add(text);
    }
  }
  return [...seen];
}

/** One filter's deny values that become `pbx/manual` decisions (see manualBanValues), in list order. */
export function filterBanValues(filter: Pick<NetworkFilter, 'deny'>): string[] {
  const out: string[] = [];
  for (const { text, cidr } of denyRanges(filter)) if (!isCatchAll(cidr) && !unblockableReason(cidr)) out.push(text);
  return out;
}

/** The permit ranges of trusted (`newer_block_ip`) filters. */
export function trustedRanges(filters: readonly NetworkFilter[]): Array<{ text: string; cidr: Cidr }> {
  const out: Array<{ text: string; cidr: Cidr }> = [];
  for (const filter of filters) {
    if (!filter.newer_block_ip) continue;
    const cidr = parseCidr(filter.permit);
    if (cidr) out.push({ text: filter.permit, cidr });
  }
  return out;
}

/** A filter named the way the console shows it: its description and network, `"Office" (192.0.2.0/24)`. */
export function filterLabel(filter: Pick<NetworkFilter, 'description' | 'permit'>): string {
  return filter.description.trim()
    ? `"${filter.description.trim()}" (${filter.permit})`
    : `the filter for ${filter.permit}`;
}
