import type { BlocklistEntry, BlocklistOptions } from './blocklist.ts';
import { MANUAL_DURATION, MAX_DECISION_SECONDS } from '../model/index.ts';
import { f5Field, routerOsString } from './feed-encoding.ts';
import { feedCursorVariable } from '../../../src-shared/formats.ts';

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
export function routerTimeout(entry: BlocklistEntry, now: number): string | undefined {
  if (entry.expiresAt === null) return MANUAL_DURATION;
  const seconds = Math.min(MAX_DECISION_SECONDS, Math.floor((entry.expiresAt - now) / 1000));
  return seconds >= 1 ? `${seconds}s` : undefined;
}

/** The list a full MikroTik feed loads into before it swaps it in: the live list is never emptied while it loads. */
export const loadingList = (list: string) => `${list}-load`;

/** The closing line that hands the router the feed's cursor, for its next fetch's `since=`. */
export const cursorLine = (list: string, token: string) => {
  const name = feedCursorVariable(list);
  return `:global ${name}; :set ${name} "${routerOsString(token)}";\n`;
};

/**
 * `mikrotik`: a RouterOS script in the form of cs-blocklist-mirror's template (an add function,
 * then one call per entry with `comment=<scenario>` and `timeout=<duration>`, never longer than the
 * time left), except that it loads into a second list (`<list>-load`) and then swaps it in, one
 * line removing the old entries and renaming the loaded ones: the list is never empty while 35,000
 * entries load. With a `token`, it ends by storing it in the router's `:global` for the next fetch's
 * `since=` (blocklist-deltas.ts). Each call's arguments are RouterOS strings, escaped
 * (`routerOsString`); the list name lands unquoted in `list=`, so the query accepts only
 * `[A-Za-z0-9_.-]{1,64}` (parseBlocklistQuery) and it needs no escaping.
 */
export function mikrotik(
  entries: readonly BlocklistEntry[],
  options: Pick<BlocklistOptions, 'ipv4only' | 'ipv6only' | 'listname'>,
  now: number,
  token?: string,
): string {
  const list = options.listname;
  const load = loadingList(list);
  const fn = MIKROTIK_FUNCTION;
  const families: Array<['ip' | 'ipv6', string]> = [];
  if (!options.ipv6only) families.push(['ip', fn]);
  if (!options.ipv4only) families.push(['ipv6', `${fn}v6`]);
  let out = '';
  for (const [ip, name] of families)
    out +=
      `\n/${ip}/firewall/address-list/remove [ find where list="${load}" ];\n` +
      `:global ${name};\n` +
      `:set ${name} do={\n` +
      `    :do { /${ip}/firewall/address-list/add list=${load} address=$1 comment="$2" timeout=$3; } on-error={ }\n` +
      `}\n`;
  for (const entry of entries) {
    const timeout = routerTimeout(entry, now);
    if (timeout)
      out += `$${fn}${entry.value.includes(':') ? 'v6' : ''} "${routerOsString(entry.value)}" "${routerOsString(entry.scenario)}" "${timeout}"\n`;
  }
  out += '\n';
  for (const [ip] of families)
    out +=
      `/${ip}/firewall/address-list/remove [ find where list="${list}" ]; ` +
      `/${ip}/firewall/address-list/set [ find where list="${load}" ] list=${list};\n`;
  for (const [, name] of families) out += `:set ${name};\n`;
  if (token !== undefined) out += cursorLine(list, token);
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
