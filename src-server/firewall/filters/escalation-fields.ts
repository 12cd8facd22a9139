import { z } from 'zod';
import { boundedInteger, SETTING_BOUNDS } from '../../config/setting-bounds.ts';

const bounds = SETTING_BOUNDS.fail2ban;

/**
 * Neighbourhood escalation's settings, own keys of the `fail2ban` singleton (spread into
 * FAIL2BAN_FIELDS): `escalationBans` single bans of one category within `escalationWindow` seconds
 * inside one /`escalationIpv4Prefix` (IPv4) or /`escalationIpv6Prefix` (IPv6) become one Range ban.
 */
export const ESCALATION_FIELDS = {
  escalation: { schema: z.boolean(), default: false },
  escalationBans: { schema: boundedInteger(bounds.escalationBans), default: 5 },
  escalationWindow: { schema: boundedInteger(bounds.escalationWindow), default: 3600 },
  escalationIpv4Prefix: { schema: boundedInteger(bounds.escalationIpv4Prefix), default: 24 },
  escalationIpv6Prefix: { schema: boundedInteger(bounds.escalationIpv6Prefix), default: 48 },
} satisfies Record<string, { schema: z.ZodType; default: unknown }>;

type EscalationFields = typeof ESCALATION_FIELDS;
export type EscalationSettings = { [Name in keyof EscalationFields]: z.output<EscalationFields[Name]['schema']> };

/** The stored values, each missing or out-of-bounds one at its default (a backup may hold anything). */
export function escalationFromStored(stored: Record<string, unknown>): EscalationSettings {
  const valid = <Name extends keyof EscalationFields>(name: Name): EscalationSettings[Name] => {
    const parsed = ESCALATION_FIELDS[name].schema.safeParse(stored[name]);
    return (parsed.success ? parsed.data : ESCALATION_FIELDS[name].default) as EscalationSettings[Name];
  };
  return {
    escalation: valid('escalation'),
    escalationBans: valid('escalationBans'),
    escalationWindow: valid('escalationWindow'),
    escalationIpv4Prefix: valid('escalationIpv4Prefix'),
    escalationIpv6Prefix: valid('escalationIpv6Prefix'),
  };
}
