import { readFail2ban, RegisteredAddresses } from '../../firewall/filters/index.ts';
import { flagText, readAccountFlags } from '../../firewall/intrusion/index.ts';
import { ok } from '../../resource-kit/results.ts';
import type { FirewallAction } from './declaration.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * `firewall:getPhoneProtection`: registered phones are never cut off (docs/firewall.md). The
 * addresses protected now with their phones (registered since, or ended within the linger), and
 * the accounts flagged for failing from one of them, each in words for the Dashboard.
 */
export const getPhoneProtection: FirewallAction<'getPhoneProtection'> = (ctx) => {
  const settings = readFail2ban(ctx.db);
  const addresses = RegisteredAddresses.read(ctx.db, ctx.now())
    .list()
    .map(({ address, phones }) => ({
      address,
      phones: phones.map((p) => ({ endpoint: p.endpoint, registeredSince: iso(p.since)!, endedAt: iso(p.endedAt) })),
    }));
  const flags = readAccountFlags(ctx.db).map((flag) => ({ ...flag, text: flagText(flag) }));
  return ok({
    enabled: settings.protectRegistered,
    lingerMinutes: settings.registeredLingerMinutes,
    addresses,
    flags,
  });
};
