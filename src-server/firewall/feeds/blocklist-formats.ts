import type { BlocklistEntry, BlocklistOptions } from './blocklist.ts';
import { MANUAL_DURATION, MAX_DECISION_SECONDS } from '../model/index.ts';
import { f5Field, routerOsString } from './feed-encoding.ts';

/**
 * The feed formats, written from cs-blocklist-mirror's `pkg/formatters` (formatters.go and
 * mikrotik/mikrotik.tmpl) so that router configurations written for it work unchanged. Values are
 * canonical addresses and CIDRs; every text (a scenario, upstream ones included) goes through its
 * format's encoder in feed-encoding.ts, so none can change a feed's syntax.
 */

/** `plain_text`: one address or CIDR per line. */
export function plainText(entries: readonly BlocklistEntry[]): string {
  let out = '';
  for (const entry of entries) out += `${entry.value}\n`;
  return out;
}

/** The scenario's part after `/` (`pbx/sip` is `sip`), as the F5 category, reduced to the field's safe set. */
const category = (scenario: string) => f5Field(scenario.includes('/') ? scenario.split('/')[1]! : scenario);

/** `f5`: `address,mask,bl,category`; a single IPv6 address gets mask 64, as in the original. */
export function f5(entries: readonly BlocklistEntry[]): string {
  let out = '';
  for (const entry of entries) {
    if (entry.scope === 'Ip')
      out += `${entry.value},${entry.value.includes(':') ? 64 : 32},bl,${category(entry.scenario)}\n`;
    else {
      const [address, mask] = entry.value.split('/');
      out += `${address},${mask},bl,${category(entry.scenario)}\n`;
    }
  }
  return out;
}

/** `juniper`: every entry as a CIDR (`/32` or `/128` for single addresses). */
export function juniper(entries: readonly BlocklistEntry[]): string {
  let out = '';
  for (const entry of entries)
    out += entry.scope === 'Ip' ? `${entry.value}${entry.value.includes(':') ? '/128' : '/32'}\n` : `${entry.value}\n`;
  return out;
}

const MIKROTIK_FUNCTION = 'CrowdSecAddIP';

/**
 * A RouterOS timeout never longer than the time left: whole seconds rounded down (the stream rounds
 * up). Undefined under one second: `timeout=0s` would make a lasting entry, and the ban is ending.
 */
function routerTimeout(entry: BlocklistEntry, now: number): string | undefined {
  if (entry.expiresAt === null) return MANUAL_DURATION;
  const seconds = Math.min(MAX_DECISION_SECONDS, Math.floor((entry.expiresAt - now) / 1000));
  return seconds >= 1 ? `${seconds}s` : undefined;
}

/**
 * `mikrotik`: a RouterOS script that empties the address list (IPv4 and IPv6), then adds each entry
 * with `comment=<scenario>` and `timeout=<duration>` (never longer than the time left), the output
 * of cs-blocklist-mirror's template byte for byte. Each call's arguments are RouterOS strings,
 * escaped (`routerOsString`); the list name lands unquoted in `list=`, so the query accepts only
 * `[A-Za-z0-9_.-]{1,64}` (parseBlocklistQuery) and it needs no escaping.
 */
export function mikrotik(
  entries: readonly BlocklistEntry[],
  options: Pick<BlocklistOptions, 'ipv4only' | 'ipv6only' | 'listname'>,
  now: number,
): string {
  const list = options.listname;
  const fn = MIKROTIK_FUNCTION;
  const setup = (ip: 'ip' | 'ipv6', name: string) =>
    `\n/${ip}/firewall/address-list/remove [ find where list="${list}" ];\n` +
    `:global ${name};\n` +
    `:set ${name} do={\n` +
    `    :do { /${ip}/firewall/address-list/add list=${list} address=$1 comment="$2" timeout=$3; } on-error={ }\n` +
    `}\n`;
  let out = '';
  if (!options.ipv6only) out += setup('ip', fn);
  if (!options.ipv4only) out += setup('ipv6', `${fn}v6`);
  for (const entry of entries) {
    const timeout = routerTimeout(entry, now);
    if (timeout)
      out += `$${fn}${entry.value.includes(':') ? 'v6' : ''} "${routerOsString(entry.value)}" "${routerOsString(entry.scenario)}" "${timeout}"\n`;
  }
  if (!options.ipv6only) out += `\n:set ${fn};`;
  if (!options.ipv4only) out += `\n:set ${fn}v6;`;
  return out;
}

/** The feed's body in the requested format. */
export function renderBlocklist(entries: readonly BlocklistEntry[], options: BlocklistOptions, now: number): string {
  switch (options.format) {
    case 'plain_text':
      return plainText(entries);
    case 'f5':
      return f5(entries);
    case 'juniper':
      return juniper(entries);
    case 'mikrotik':
      return mikrotik(entries, options, now);
  }
}
