import type { Db } from '../storage/database.ts';
import type { HealthCheckState } from '../wire/types.ts';
import type { HealthArea } from './finding.ts';

/** A failing check as stored for system:getHealth (a worker) and the next start. */
export interface StoredCheck extends HealthCheckState {
  area: HealthArea;
  redactedTitle?: string;
  recoveredTitle?: string;
  detail?: string;
}

/** Writes (or, for a check that is ok again, deletes) one check's row. */
export function storeCheck(db: Db, check: StoredCheck): void {
  if (check.state === 'ok') db.prepare('DELETE FROM health_checks WHERE id = ?').run(check.id);
  else
    db.prepare(
      'INSERT INTO health_checks (id, value) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value',
    ).run(check.id, JSON.stringify({ ...check, reminder: undefined }));
}

/** Every failing check, most severe first, then oldest first. */
export function readChecks(db: Db): StoredCheck[] {
  const rank = { critical: 0, warning: 1, info: 2 } as const;
  return (db.prepare('SELECT value FROM health_checks').pluck().all() as string[])
    .map((text) => JSON.parse(text) as StoredCheck)
    .sort((a, b) => rank[a.severity] - rank[b.severity] || a.since.localeCompare(b.since));
}

/** Empties the table (at start every polled check is found again from scratch). */
export function clearChecks(db: Db, keepKinds: readonly string[]): void {
  const keep = new Set(keepKinds);
  for (const check of readChecks(db))
    if (!keep.has(check.kind)) db.prepare('DELETE FROM health_checks WHERE id = ?').run(check.id);
}
