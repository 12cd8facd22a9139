import { activeBansOfKinds } from '../firewall/bans/index.ts';
import { scopeOf } from '../firewall/model/index.ts';
import { statement, type Db } from '../storage/database.ts';
import type { LinkSettings } from './link-settings.ts';
import { PushQueue, type NewPush } from './push-queue.ts';

/** What sharing the bans in force would do (dry run) or did. */
export interface ShareOutcome {
  /** Bans in force the link's rules share and the LAPI has not been given yet: queued (or would be). */
  queued: number;
  /** Bans in force the link shares that are already queued or sent (nothing to do for them). */
  alreadyShared: number;
}

/** The latest share run and how far it got: `sent` have left the queue (accepted, or dropped once ended). */
export interface ShareProgress {
  at: number;
  queued: number;
  sent: number;
  waiting: number;
}

/**
 * The bans in force that linking (or switching pushing on) left unshared: those the link's rules
 * share (categories and manual, as the pusher decides; never upstream decisions) that
 * `crowdsec_pushed` does not already hold until their end. Queued once into the durable push
 * queue (recorded there at once, so a second run finds nothing to do) unless `dryRun`.
 */
export function shareActiveBans(db: Db, settings: LinkSettings, now: number, dryRun: boolean): ShareOutcome {
  // Upstream decisions are never among the shared kinds: they belong to the LAPI.
  const kinds = [...settings.shared];
  const pushedUntil = statement(db, 'SELECT until FROM crowdsec_pushed WHERE value = ? AND scenario = ?');
  const entries: NewPush[] = [];
  let alreadyShared = 0;
  for (const ban of activeBansOfKinds(db, now, kinds)) {
    const scenario = `pbx/${ban.category}`;
    const pushed = pushedUntil.get(ban.ip, scenario) as { until: number } | undefined;
    if (pushed && pushed.until >= ban.expires_at) {
      alreadyShared++;
      continue;
    }
    entries.push({
      kind: 'add',
      value: ban.ip,
      scope: scopeOf(ban.ip),
      scenario,
      reason: ban.reason,
      expiresAt: ban.expires_at,
    });
  }
  if (dryRun || entries.length === 0) return { queued: entries.length, alreadyShared };
  db.transaction(() => {
    const before = (statement(db, 'SELECT MAX(id) AS id FROM crowdsec_push_queue').get() as { id: number | null }).id;
    new PushQueue(db, { now: () => now }).enqueueInTransaction(entries);
    const last = (statement(db, 'SELECT MAX(id) AS id FROM crowdsec_push_queue').get() as { id: number | null }).id;
    statement(db, 'INSERT INTO crowdsec_share_runs (at, queued, first_id, last_id) VALUES (?, ?, ?, ?)').run(
      now,
      entries.length,
      (before ?? 0) + 1,
      last,
    );
  })();
  return { queued: entries.length, alreadyShared };
}

/** The latest share run's progress, or null when the bans in force were never shared. */
export function shareProgress(db: Db): ShareProgress | null {
  const run = statement(
    db,
    'SELECT at, queued, first_id AS firstId, last_id AS lastId FROM crowdsec_share_runs ORDER BY id DESC LIMIT 1',
  ).get() as { at: number; queued: number; firstId: number; lastId: number } | undefined;
  if (!run) return null;
  const waiting = (
    statement(db, 'SELECT COUNT(*) AS n FROM crowdsec_push_queue WHERE id BETWEEN ? AND ?').get(
      run.firstId,
      run.lastId,
    ) as { n: number }
  ).n;
  return { at: run.at, queued: run.queued, sent: Math.max(0, run.queued - waiting), waiting };
}
