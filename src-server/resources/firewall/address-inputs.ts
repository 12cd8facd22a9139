import { z } from 'zod';
import { normalizeAddress, normalizeCidrText } from '../../firewall/model/index.ts';
import { parseBanDuration } from '../../firewall/bans/index.ts';

/** An address or CIDR the operator types: its network form (`value`) and what was sent (`written`, trimmed). */
export const cidrInput = (required: string) =>
  z
    .string({ error: required })
    .min(1, { error: required })
    .transform((raw, check) => {
      const value = normalizeCidrText(raw);
      if (value) return { value, written: raw.trim() };
      check.addIssue({ code: 'custom', message: `ip: "${raw.slice(0, 100)}" is not an IPv4 or IPv6 address or CIDR.` });
      return z.NEVER;
    });

/** An address, or a banned range given as its CIDR, in its normal form (what unbanning takes). */
const liftedValue = (raw: string) => (raw.includes('/') ? normalizeCidrText(raw) : normalizeAddress(raw));

/** The `ip` of an unban. */
export const unbanInput = (required: string) =>
  z
    .string({ error: required })
    .min(1, { error: required })
    .transform((raw, check) => {
      const value = liftedValue(raw);
      if (value) return value;
      check.addIssue({
        code: 'custom',
        message: `ip: "${raw.slice(0, 100)}" is not a valid IPv4 or IPv6 address (or a banned range's CIDR).`,
      });
      return z.NEVER;
    });

/** The `ips` of a bulk unban: every entry is checked, and each bad one named by its index. */
export const unbanListInput = (text: string) =>
  z
    .array(z.string({ error: text }), { error: text })
    .min(1, { error: text })
    .max(1000, { error: text })
    .transform((list, check) => {
      const values = list.map(liftedValue);
      values.forEach((value, i) => {
        if (!value)
          check.addIssue({
            code: 'custom',
            message: `ips[${i}]: "${list[i]!.slice(0, 100)}" is not a valid address or range.`,
          });
      });
      return values.filter((value) => value !== undefined);
    });

/** A manual ban's duration, as seconds (null: permanent, the default). */
export const banDurationInput = (text: string) =>
  z
    .union([z.number(), z.string(), z.null()], { error: text })
    .optional()
    .transform((raw, check) => {
      const duration = parseBanDuration(raw ?? 'permanent');
      if (duration.ok) return duration.seconds;
      check.addIssue({ code: 'custom', message: duration.message });
      return z.NEVER;
    });
