import { sqlMigration } from './migration.ts';

/**
 * `firewall_bans` is also the ban history: each row is one ban from `banned_at` to its end
 * (`lifted_at`, or `expires_at` when it ran out). Manual bans (category `manual`, a value that may
 * be a CIDR) record the services they cover; every row records who banned and who lifted.
 */
export const banHistoryMigration = sqlMigration(
  23,
  'manual bans and ban history: services, banned_by, lifted_by',
  `
      ALTER TABLE firewall_bans ADD COLUMN services TEXT;
      ALTER TABLE firewall_bans ADD COLUMN banned_by TEXT NOT NULL DEFAULT '';
      ALTER TABLE firewall_bans ADD COLUMN lifted_by TEXT;
      CREATE INDEX firewall_bans_ended ON firewall_bans (COALESCE(lifted_at, expires_at));
    `,
);
