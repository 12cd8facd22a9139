import { sqlMigration } from './migration.ts';

/**
 * Health checks (docs/health.md):
 * - api_keys.feed_interval_minutes: how often the router offered this key's feed fetches it (null:
 *   the console's default, 5 minutes); a feed not fetched for three of these is reported.
 * - bouncer_cursors.last_fetch_at: the key's last router-feed fetch (epoch ms). A fetch counts as
 *   the key's poll (last_poll_at, polls); this column tells a feed key from a stream bouncer.
 * - health_checks: the checks failing now, one JSON row each, written by the web thread on every
 *   change and read by system:getHealth in a worker.
 */
export const healthMigration = sqlMigration(
  80,
  'health checks: feed interval per key, last feed fetch, failing checks',
  `
      ALTER TABLE api_keys ADD COLUMN feed_interval_minutes INTEGER;
      ALTER TABLE bouncer_cursors ADD COLUMN last_fetch_at INTEGER;
      CREATE TABLE health_checks (
        id    TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
);
