import { sqlMigration } from './migration.ts';

/**
 * Per-key export options of issue 4/6: a cap on the entries a bouncer or feed key receives (null:
 * none), the device preset it came from, and CIDR aggregation.
 */
export const apiKeyCapsMigration = sqlMigration(
  12,
  'api key entry cap, cap preset and aggregation',
  `
    ALTER TABLE api_keys ADD COLUMN entry_cap INTEGER;
    ALTER TABLE api_keys ADD COLUMN cap_preset TEXT NOT NULL DEFAULT 'none';
    ALTER TABLE api_keys ADD COLUMN aggregate INTEGER NOT NULL DEFAULT 0;
  `,
);
