import { sqlMigration } from './migration.ts';

/**
 * Repeat offenders (fail2ban's `bantime.increment`): each automatic ban records its rank among the
 * bans of that address in that category (`ban_number`: 1 for the first), so the history and the
 * Bans table can say "3rd ban" even after older rows are pruned. Rows written before are numbered
 * from the history they still have.
 */
export const banNumbersMigration = sqlMigration(
  50,
  'ban numbers for repeat offenders',
  `
      ALTER TABLE firewall_bans ADD COLUMN ban_number INTEGER NOT NULL DEFAULT 1;
      UPDATE firewall_bans SET ban_number = (
        SELECT COUNT(*) FROM firewall_bans AS earlier
        WHERE earlier.ip = firewall_bans.ip AND earlier.category = firewall_bans.category
          AND (earlier.banned_at < firewall_bans.banned_at
            OR (earlier.banned_at = firewall_bans.banned_at AND earlier.id <= firewall_bans.id))
      ) WHERE category <> 'manual';
    `,
);
