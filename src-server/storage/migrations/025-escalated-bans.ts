import { sqlMigration } from './migration.ts';

/**
 * Neighbourhood escalation (firewall/intrusion/neighbourhood-escalation.ts): a Range ban that replaced single
 * bans of its neighbourhood records how many (`escalated_from`), so the console can mark it; null
 * for every other ban. The replaced bans are lifted by `escalated into <range>`.
 */
export const escalatedBansMigration = sqlMigration(
  25,
  'escalated bans: how many single bans a range ban replaced',
  'ALTER TABLE firewall_bans ADD COLUMN escalated_from INTEGER;',
);
