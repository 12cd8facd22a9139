import { cidrsOverlap, isCatchAll, parseStrictCidr, splitList } from '../../firewall/addresses.ts';
import { FAIL2BAN_SETTING_KEY } from '../../firewall/fail2ban-settings.ts';
import { denyRanges, filterLabel, loadFilters } from '../../firewall/filters.ts';
import type { Db } from '../../storage/database.ts';
import { singletonActions } from '../singleton.ts';
import type { ActionHandler, ResourceActions } from '../types.ts';
import { fail2banDeclaration } from './declaration.ts';

/** Every whitelist entry must be an address or CIDR, and none may overlap a filter's deny entry. */
export function validateWhitelist(db: Db, complete: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const denies = loadFilters(db).flatMap((filter) => denyRanges(filter).filter((r) => !isCatchAll(r.cidr)).map((r) => ({ ...r, filter: filterLabel(filter) })));
  for (const entry of splitList(String(complete.whitelist ?? ''))) {
    const cidr = parseStrictCidr(entry);
    if (!cidr) {
      errors.push(`whitelist: "${entry.slice(0, 100)}" is not a valid IPv4/IPv6 address or CIDR.`);
      continue;
    }
    const hit = denies.find((d) => cidrsOverlap(d.cidr, cidr));
    if (hit) errors.push(`whitelist: "${entry}" overlaps the deny entry ${hit.text} of network filter ${hit.filter}.`);
  }
  return errors;
}

/** The singleton's handlers, built per call so validation can read the filters of this connection. */
const withValidation =
  (operation: 'update' | 'patch'): ActionHandler =>
  (ctx) =>
    singletonActions(fail2banDeclaration, { settingKey: FAIL2BAN_SETTING_KEY, validate: (complete) => validateWhitelist(ctx.db, complete) })[operation](ctx);

export const fail2banActions: ResourceActions = {
  getRecord: singletonActions(fail2banDeclaration, { settingKey: FAIL2BAN_SETTING_KEY }).getRecord,
  update: withValidation('update'),
  patch: withValidation('patch'),
};
