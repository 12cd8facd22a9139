import { z } from 'zod';
import { BAN_KINDS, SERVICE_CATEGORIES } from './categories.ts';
import { isoTime } from './iso-time.ts';

/**
 * The ban history's entry: the schema `firewall:getBanLog` declares, and the type the firewall's
 * history query returns, inferred from it so that the two cannot drift.
 */

export const banKind = z.enum(BAN_KINDS);
export const bannedServices = z
  .array(z.enum(SERVICE_CATEGORIES))
  .nullable()
  .describe('Services refusing it; null: all.');

/** One ban in the history, from start to end. */
export const banLogEntry = z.object({
  id: z.number().int(),
  ip: z.string(),
  category: banKind,
  scenario: z.string(),
  reason: z.string(),
  services: bannedServices,
  bannedAt: isoTime,
  bannedBy: z.string(),
  // When it ended or will end; null for a permanent ban still in force.
  endsAt: isoTime.nullable(),
  state: z.enum(['active', 'expired', 'lifted']),
  liftedBy: z.string().nullable(),
  // The rank among this source's bans in its category (1 for the first).
  banNumber: z.number().int(),
});
export type BanLogEntry = z.infer<typeof banLogEntry>;
