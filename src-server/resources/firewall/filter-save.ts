import ipaddr from 'ipaddr.js';
import {
  cidrsOverlap,
  isCatchAll,
  normalizeAddress,
  normalizeCidrText,
  parseStrictCidr,
  splitList,
  unblockableReason,
} from '../../firewall/model/index.ts';
import {
  DEFAULT_DENY,
  defaultRules,
  denyRanges,
  filterLabel,
  type FilterRow,
  type FilterRules,
  loadFilters,
  type NetworkFilter,
  readFail2ban,
  trustedRanges,
  whitelistRanges,
} from '../../firewall/filters/index.ts';
import { networkText, parseCidr, type Cidr } from '../../net/cidr.ts';
import type { Db } from '../../storage/database.ts';
import { prepareSave, type SaveMode } from '../../resource-kit/save.ts';
import type { ActionContext, HttpVerb } from '../../resource-kit/types.ts';
import { firewallDeclaration } from './declaration.ts';

/** The columns of a filter to store (the store's row before it has an id). */
type FilterColumns = Omit<FilterRow, 'id'>;

export type FilterSaveOutcome = { ok: true; row: FilterColumns } | { ok: false; errors: string[] };

/** A stored filter in the write shape (what POST /firewall takes): the base for PUT and PATCH, and the backup's form. */
export function filterWriteShape(filter: NetworkFilter): Record<string, unknown> {
  const currentRules: Record<string, boolean> = {};
  for (const [category, rule] of Object.entries(filter.rules)) currentRules[category] = rule === 'allow';
  return {
    permit: filter.permit,
    deny: filter.deny,
    description: filter.description,
    newer_block_ip: filter.newer_block_ip,
    local_network: filter.local_network,
    currentRules,
  };
}

const maxPrefix = (address: string) => (ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128);

/**
 * `network/subnet` from an address and an optional prefix, or an error sentence. The address is
 * canonical first (`::ffff:192.0.2.0` is `192.0.2.0`), so the prefix counts in its family; for an
 * IPv4-mapped address the IPv6 prefix (96-128) is accepted too and means the same range.
 */
function permitFrom(address: string, subnet: unknown, label: string): string | { error: string } {
  const normalized = normalizeAddress(address);
  if (!normalized || address.includes('%'))
    return { error: `${label}: "${address}" is not a valid IPv4 or IPv6 address.` };
  const max = maxPrefix(normalized);
  let prefix = subnet === undefined ? max : (subnet as number);
  const mapped = normalized.includes('.') && address.includes(':');
  if (mapped && prefix >= 96 && prefix <= 128) prefix -= 96;
  if (prefix > max)
    return { error: `subnet: ${prefix} is larger than ${max}, the longest prefix for this address family.` };
  return networkText(parseCidr(`${normalized}/${prefix}`)!);
}

/** Resolves `permit` from network/subnet/permit as sent, falling back on the stored value. */
function resolvePermit(
  mode: SaveMode,
  values: Record<string, unknown>,
  existing: NetworkFilter | undefined,
): string | { error: string } | undefined {
  if (values.network !== undefined) {
    // A PATCH of the address alone keeps the stored prefix when the family is the same.
    const stored = mode === 'patch' && existing ? parseCidr(existing.permit) : undefined;
    const address = normalizeAddress(String(values.network));
    const family = address === undefined ? undefined : address.includes(':') ? 'ipv6' : 'ipv4';
    const subnet = values.subnet ?? (stored && stored[0].kind() === family ? stored[1] : undefined);
    return permitFrom(String(values.network), subnet, 'network');
  }
  if (values.permit !== undefined) {
    const text = String(values.permit);
    if (!text.includes('/')) return permitFrom(text, values.subnet, 'permit');
    const cidr = parseStrictCidr(text);
    if (!cidr) return { error: `permit: "${text}" is not a valid address or CIDR.` };
    return networkText(cidr);
  }
  if (existing && values.subnet !== undefined)
    return permitFrom(existing.permit.split('/')[0]!, values.subnet, 'subnet');
  return existing?.permit;
}

/** The deny list normalised, or the entries that are not addresses or CIDRs. */
function resolveDeny(raw: unknown): { deny: string } | { errors: string[] } {
  const entries = splitList(typeof raw === 'string' ? raw : DEFAULT_DENY);
  const errors: string[] = [];
  const out: string[] = [];
  for (const entry of entries) {
    const canonical = normalizeCidrText(entry); // ::ffff:127.0.0.1 is stored (and checked) as 127.0.0.1
    const cidr = canonical ? parseCidr(canonical)! : undefined;
    // The catch-all denies everything not permitted: published as it is, it needs no check.
    const unblockable = cidr && !isCatchAll(cidr) ? unblockableReason(cidr) : undefined;
    if (!canonical) errors.push(`deny: "${entry}" is not a valid IPv4/IPv6 address or CIDR.`);
    else if (unblockable === 'host-loopback') {
      // A block of the host's own loopback would lock the PBX out, so the export never publishes it:
      // accepting it would show a block that no bouncer ever applies.
      errors.push(
        `deny: "${canonical}" covers this PBX's own loopback address (127.0.0.1 or ::1); it is ` +
          `never published to bouncers, so it would block nothing. Remove it.`,
      );
    } else if (unblockable === 'unspecified') {
      errors.push(
        `deny: "${canonical}" holds an unspecified address (0.0.0.0/8, ::) or the whole IPv4-mapped ` +
          `space; no traffic comes from there. Block the real addresses instead.`,
      );
    } else out.push(canonical);
  }
  if (errors.length) return { errors };
  return { deny: out.length ? [...new Set(out)].join(',') : DEFAULT_DENY };
}

/**
 * Defence in depth (SPEC whitelist rule 2): a deny entry may not overlap the fail2ban whitelist
 * or a trusted network, and a trusted network may not overlap another filter's deny entries.
 */
function overlapErrors(db: Db, id: number | undefined, permit: Cidr, trusted: boolean, deny: string): string[] {
  const errors: string[] = [];
  const others = loadFilters(db).filter((f) => f.id !== id);
  const protectedRanges = [
    ...trustedRanges(others).map((r) => ({ ...r, label: 'the trusted network' })),
    ...whitelistRanges(readFail2ban(db), Date.now()).map((r) => ({ ...r, label: 'the fail2ban whitelist entry' })),
    ...(trusted ? [{ text: networkText(permit), cidr: permit, label: "this filter's own trusted network" }] : []),
  ];
  for (const { text, cidr } of denyRanges({ deny })) {
    if (isCatchAll(cidr)) continue;
    const hit = protectedRanges.find((r) => cidrsOverlap(cidr, r.cidr));
    if (hit)
      errors.push(
        `deny: "${text}" overlaps ${hit.label} ${hit.text}; remove it from the whitelist or trusted networks first.`,
      );
  }
  if (trusted) {
    for (const other of others) {
      const hit = denyRanges(other).find((r) => !isCatchAll(r.cidr) && cidrsOverlap(r.cidr, permit));
      if (hit)
        errors.push(
          `permit: the trusted network overlaps the deny entry ${hit.text} of network filter ${filterLabel(other)}.`,
        );
    }
  }
  return errors;
}

/** A filter body that passed every rule of its own (the overlap rules need the other filters). */
export interface ValidFilter {
  row: FilterColumns;
  permit: Cidr;
  trusted: boolean;
}

export type FilterValidation = { ok: true; filter: ValidFilter } | { ok: false; errors: string[] };

/**
 * Validates a filter body on its own: fields, permit, deny entries and rules, without reading the
 * database. `strictTypes` (imports) refuses `"77"` for a number instead of converting it.
 */
export function validateFilterBody(
  body: unknown,
  verb: HttpVerb,
  mode: SaveMode,
  existing?: NetworkFilter,
  strictTypes = false,
): FilterValidation {
  if (mode !== 'patch' && body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    const given = (name: string) =>
      record[name] !== undefined && record[name] !== null && String(record[name]).trim() !== '';
    if (!given('permit') && !given('network'))
      return { ok: false, errors: ['permit is required (or network with subnet).'] };
  }
  const outcome = prepareSave({
    declaration: firewallDeclaration,
    mode,
    verb,
    body,
    existing: existing && filterWriteShape(existing),
    strictTypes,
  });
  if (!outcome.ok) return outcome;
  const { values, complete } = outcome;

  const permit = resolvePermit(mode, values, existing);
  if (permit === undefined) return { ok: false, errors: ['permit is required (or network with subnet).'] };
  if (typeof permit !== 'string') return { ok: false, errors: [permit.error] };
  const deny = resolveDeny(complete.deny);
  if ('errors' in deny) return { ok: false, errors: deny.errors };

  const rules: FilterRules = mode === 'patch' && existing ? { ...existing.rules } : defaultRules();
  for (const [category, allowed] of Object.entries((complete.currentRules ?? {}) as Record<string, boolean>)) {
    rules[category as keyof FilterRules] = allowed ? 'allow' : 'block';
  }
  const trusted = complete.newer_block_ip === true;
  return {
    ok: true,
    filter: {
      permit: parseCidr(permit)!,
      trusted,
      row: {
        permit,
        deny: deny.deny,
        description: String(complete.description ?? ''),
        newer_block_ip: trusted ? 1 : 0,
        local_network: complete.local_network === true ? 1 : 0,
        rules: JSON.stringify(rules),
      },
    },
  };
}

/** Validates a create, update or patch of a filter and returns the row to store. */
export function prepareFilterSave(ctx: ActionContext, mode: SaveMode, existing?: NetworkFilter): FilterSaveOutcome {
  const validation = validateFilterBody(ctx.input, ctx.verb, mode, existing);
  if (!validation.ok) return validation;
  const { row, permit, trusted } = validation.filter;
  const errors = overlapErrors(ctx.db, existing?.id, permit, trusted, row.deny);
  return errors.length ? { ok: false, errors } : { ok: true, row };
}
