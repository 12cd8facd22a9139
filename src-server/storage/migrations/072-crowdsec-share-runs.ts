import { sqlMigration } from './migration.ts';

/**
 * `crowdsec-link:shareActiveBans`: each run that queued the bans in force for the LAPI, with the
 * queue ids it used (first_id..last_id), so link:getStatus tells how many have left the queue (sent).
 */
export const crowdsecShareRunsMigration = sqlMigration(
  72,
  'CrowdSec link: runs sharing the bans in force',
  `
      CREATE TABLE crowdsec_share_runs (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        queued INTEGER NOT NULL,
        first_id INTEGER,
        last_id INTEGER
      );
    `,
);
