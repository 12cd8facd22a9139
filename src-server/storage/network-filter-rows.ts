import type { Db } from './database.ts';

/**
 * The `network_filters` table: the only module that runs its SQL. It sits in storage/ so that both
 * readers reach it: the firewall's filter store (`firewall/filters/filter-store.ts`, rows to filters) and
 * auth's network binding (`auth/network-binding.ts`, which sits beside firewall/ and may not import it).
 */

/** A filter as stored (flags as 0/1, rules as JSON text). A row to write has no `id` yet. */
export interface FilterRow {
  id: number;
  permit: string;
  deny: string;
  description: string;
  newer_block_ip: number;
  local_network: number;
  rules: string;
}

/** All rows in id order. */
export function filterRows(db: Db): FilterRow[] {
  return db.prepare('SELECT * FROM network_filters ORDER BY id').all() as FilterRow[];
}

/** One row, or undefined. */
export function filterRow(db: Db, id: number | string): FilterRow | undefined {
  return db.prepare('SELECT * FROM network_filters WHERE id = ?').get(id) as FilterRow | undefined;
}

/** One filter's `permit` list (comma-separated CIDRs), or undefined when no filter has that id. */
export function filterPermit(db: Db, id: number): string | undefined {
  const row = db.prepare('SELECT permit FROM network_filters WHERE id = ?').get(id) as { permit: string } | undefined;
  return row?.permit;
}

const COLUMNS = 'permit, deny, description, newer_block_ip, local_network, rules';
const VALUES = '@permit, @deny, @description, @newer_block_ip, @local_network, @rules';

/** Stores a new filter and returns its id. */
export function insertFilter(db: Db, row: Omit<FilterRow, 'id'>): number {
  return Number(db.prepare(`INSERT INTO network_filters (${COLUMNS}) VALUES (${VALUES})`).run(row).lastInsertRowid);
}

/** Rewrites every column of a stored filter. */
export function updateFilter(db: Db, id: number, row: Omit<FilterRow, 'id'>): void {
  db.prepare(
    'UPDATE network_filters SET permit = @permit, deny = @deny, description = @description, ' +
      'newer_block_ip = @newer_block_ip, local_network = @local_network, rules = @rules WHERE id = @id',
  ).run({ ...row, id });
}

export function removeFilter(db: Db, id: number): void {
  db.prepare('DELETE FROM network_filters WHERE id = ?').run(id);
}

/**
 * Replaces every filter with `rows`, ids kept (a restored backup). A sequence an older import pushed
 * past `maxId` restarts after the largest id kept; a sound one is left alone, so the id of a deleted
 * filter (which a stale key may still name) is never reused.
 */
export function replaceFilters(db: Db, rows: readonly FilterRow[], maxId: number): void {
  db.prepare('DELETE FROM network_filters').run();
  const insert = db.prepare(`INSERT INTO network_filters (id, ${COLUMNS}) VALUES (@id, ${VALUES})`);
  for (const row of rows) insert.run(row);
  db.prepare(
    `UPDATE sqlite_sequence SET seq = (SELECT COALESCE(MAX(id), 0) FROM network_filters) WHERE ` +
      `name = 'network_filters' AND seq > ?`,
  ).run(maxId);
}
