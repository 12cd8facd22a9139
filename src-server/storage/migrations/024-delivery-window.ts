import { sqlMigration } from './migration.ts';

/**
 * Bouncer cursors become delivery windows: the versions a key was sent in its last answers
 * (recorded before the first byte), so each deletion is repeated on the key's next answers
 * (docs/firewall.md "Cursors and deletions"). A key's last refusal is kept beside it, so the
 * console shows a refused bouncer as refused, with the reason, not as polling.
 */
export const deliveryWindowMigration = sqlMigration(
  24,
  'bouncer delivery windows and last refusal per key',
  `
      ALTER TABLE bouncer_cursors ADD COLUMN sent_versions TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE bouncer_cursors ADD COLUMN refused_at INTEGER;
      ALTER TABLE bouncer_cursors ADD COLUMN refused_ip TEXT;
      ALTER TABLE bouncer_cursors ADD COLUMN refused_code TEXT;
      ALTER TABLE bouncer_cursors ADD COLUMN refused_reason TEXT;
      UPDATE bouncer_cursors SET sent_versions = json_array(version) WHERE version IS NOT NULL;
    `,
);
