import { statement, type Db } from './database.ts';

/**
 * The `api_keys` table and its `api_key_sources`: the only module that runs their SQL, apart from
 * the bouncer export's joins with its own poll bookkeeping (`firewall/export/bouncer-keys.ts`). It
 * sits in storage/ so that every reader reaches it: auth (a key by its hash, its use), audit (a
 * key's description), the firewall (which keys exist) and the api-keys, firewall and backup
 * resources, which may not import each other's rows.
 */

/** The api_keys columns a key's grants are read from (the key itself, the backup's key metadata). */
export interface ApiKeyGrantRow {
  id: number;
  description: string;
  allowed_paths: string;
  full_permissions: number;
  networkfilterid: string;
  expand_ranges: number;
  entry_cap: number | null;
  aggregate: number;
  feed_interval_minutes: number | null;
  disabled_at: string | null;
  expires_at: string | null;
}

/** The grant columns and those only the record shows. */
export interface ApiKeyRow extends ApiKeyGrantRow {
  key_display: string;
  bouncer_setup: string | null;
  cap_preset: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  rotated_at: string | null;
}

const GRANT_COLUMNS =
  'id, description, allowed_paths, full_permissions, networkfilterid, expand_ranges, entry_cap, aggregate, ' +
  'feed_interval_minutes, disabled_at, expires_at';
const COLUMNS =
  'id, description, key_display, allowed_paths, full_permissions, networkfilterid, ' +
  'expand_ranges, entry_cap, cap_preset, aggregate, bouncer_setup, created_at, last_used_at, last_used_ip, disabled_at, ' +
  'expires_at, rotated_at, feed_interval_minutes';

/** A key's grant row by the hash of its value: one indexed lookup, never a scan. */
export function grantRowByHash(db: Db, hash: string): ApiKeyGrantRow | undefined {
  return statement(db, `SELECT ${GRANT_COLUMNS} FROM api_keys WHERE key_hash = ?`).get(hash) as
    | ApiKeyGrantRow
    | undefined;
}

/** Every key's grant row, in id order (the backup's key metadata). */
export function grantRows(db: Db): ApiKeyGrantRow[] {
  return db.prepare(`SELECT ${GRANT_COLUMNS} FROM api_keys ORDER BY id`).all() as ApiKeyGrantRow[];
}

/** A key's record row, or undefined. */
export function apiKeyRow(db: Db, id: number): ApiKeyRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id) as ApiKeyRow | undefined;
}

/** Record rows in id order, one page of them when `page` is given. */
export function apiKeyRows(db: Db, page?: { limit: number; offset: number } | null): ApiKeyRow[] {
  return (
    page
      ? db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY id LIMIT ? OFFSET ?`).all(page.limit, page.offset)
      : db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`).all()
  ) as ApiKeyRow[];
}

export function apiKeyCount(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n;
}

/** Ids of the keys that exist. */
export function apiKeyIds(db: Db): number[] {
  return db.prepare('SELECT id FROM api_keys').pluck().all() as number[];
}

/** Every key's description by id. */
export function apiKeyDescriptions(db: Db): Map<number, string> {
  const rows = db.prepare('SELECT id, description FROM api_keys').all() as Array<{ id: number; description: string }>;
  return new Map(rows.map((k) => [k.id, k.description]));
}

/** One key's description, or undefined when no key has that id. */
export function apiKeyDescription(db: Db, id: number): string | undefined {
  const row = statement(db, 'SELECT description FROM api_keys WHERE id = ?').get(id) as
    | { description: string }
    | undefined;
  return row?.description;
}

/** Whether another key (any but `exceptId`) has this hash. */
export function keyHashTaken(db: Db, hash: string, exceptId?: number): boolean {
  return db.prepare('SELECT 1 FROM api_keys WHERE key_hash = ? AND id != ?').get(hash, exceptId ?? -1) !== undefined;
}

/** The grants a key may hand on: its paths, full flag and binding. */
export function keyGrantsOf(
  db: Db,
  id: number,
): Pick<ApiKeyGrantRow, 'allowed_paths' | 'full_permissions' | 'networkfilterid'> | undefined {
  return db.prepare('SELECT allowed_paths, full_permissions, networkfilterid FROM api_keys WHERE id = ?').get(id) as
    | Pick<ApiKeyGrantRow, 'allowed_paths' | 'full_permissions' | 'networkfilterid'>
    | undefined;
}

/** Inserts a key from its column values (names are the caller's own, never input); returns its id. */
export function insertApiKey(db: Db, columns: Record<string, unknown>): number {
  const names = Object.keys(columns);
  const info = db
    .prepare(`INSERT INTO api_keys (${names.join(', ')}) VALUES (${names.map((n) => '@' + n).join(', ')})`)
    .run(columns);
  return Number(info.lastInsertRowid);
}

/** Updates a key's given columns (names are the caller's own, never input); nothing when there are none. */
export function updateApiKey(db: Db, id: number, columns: Record<string, unknown>): void {
  const names = Object.keys(columns);
  if (names.length)
    db.prepare(`UPDATE api_keys SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @__id`).run({
      ...columns,
      __id: id,
    });
}

/** A new value for the same record. */
export function rotateApiKey(db: Db, id: number, hash: string, display: string, at: string): void {
  db.prepare('UPDATE api_keys SET key_hash = ?, key_display = ?, rotated_at = ? WHERE id = ?').run(
    hash,
    display,
    at,
    id,
  );
}

export function deleteApiKey(db: Db, id: number): void {
  db.prepare('DELETE FROM api_keys WHERE id = ?').run(id);
}

/** The keys bound to a network filter (their `networkfilterid` names it), in id order. */
export function keysBoundToFilter(db: Db, filterId: string): Array<{ id: number; description: string }> {
  return db
    .prepare('SELECT id, description FROM api_keys WHERE networkfilterid = ? ORDER BY id')
    .all(filterId) as Array<{
    id: number;
    description: string;
  }>;
}

/** Every key bound to some network filter (neither 'none' nor 'localhost'). */
export function filterBoundKeys(db: Db): Array<Pick<ApiKeyGrantRow, 'id' | 'description' | 'networkfilterid'>> {
  return db
    .prepare("SELECT id, description, networkfilterid FROM api_keys WHERE networkfilterid NOT IN ('none', 'localhost')")
    .all() as Array<Pick<ApiKeyGrantRow, 'id' | 'description' | 'networkfilterid'>>;
}

/** A key's allowed source ('none', 'localhost' or a filter id), or undefined when no key has that id. */
export function networkFilterOfKey(db: Db, id: number | string): string | undefined {
  const row = db.prepare('SELECT networkfilterid FROM api_keys WHERE id = ?').get(id) as
    | { networkfilterid: string }
    | undefined;
  return row?.networkfilterid;
}

/** Rebinds every key bound to filter `from` to `to`. */
export function rebindKeys(db: Db, from: string, to: string): void {
  db.prepare('UPDATE api_keys SET networkfilterid = ? WHERE networkfilterid = ?').run(to, from);
}

/**
 * The key's last use and its source row, in one transaction: the source row is written unless it
 * is fresher than `cutoff` (then nothing is, and it returns false), the key keeps its `maxSources`
 * most recent sources, and `last_used_at`/`last_used_ip` move forward only.
 */
export function recordKeyUse(
  db: Db,
  use: { keyId: number; ip: string; at: string; cutoff: string; maxSources: number },
): boolean {
  const { keyId, ip, at, cutoff, maxSources } = use;
  return db.transaction(() => {
    const source = statement(
      db,
      `INSERT INTO api_key_sources (key_id, ip, last_used_at) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ?)
       ON CONFLICT(key_id, ip) DO UPDATE SET last_used_at = excluded.last_used_at WHERE last_used_at <= ?`,
    ).run(keyId, ip, at, keyId, cutoff);
    if (source.changes === 0) return false;
    statement(
      db,
      `DELETE FROM api_key_sources WHERE key_id = ? AND ip NOT IN
         (SELECT ip FROM api_key_sources WHERE key_id = ? ORDER BY last_used_at DESC, ip LIMIT ${maxSources})`,
    ).run(keyId, keyId);
    statement(
      db,
      'UPDATE api_keys SET last_used_at = ?, last_used_ip = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    ).run(at, ip, keyId, at);
    return true;
  })();
}

/** A key's source addresses with their last use, most recent first. */
export function keySources(db: Db, keyId: number): Array<{ ip: string; last_used_at: string }> {
  return statement(
    db,
    'SELECT ip, last_used_at FROM api_key_sources WHERE key_id = ? ORDER BY last_used_at DESC, ip',
  ).all(keyId) as Array<{ ip: string; last_used_at: string }>;
}

/** What the health checks need of every key: its name, whether it is in use, and its feed interval. */
export interface WatchedKeyRow {
  id: number;
  description: string;
  disabled_at: string | null;
  expires_at: string | null;
  feed_interval_minutes: number | null;
}

export function watchedKeyRows(db: Db): WatchedKeyRow[] {
  return db
    .prepare('SELECT id, description, disabled_at, expires_at, feed_interval_minutes FROM api_keys')
    .all() as WatchedKeyRow[];
}
