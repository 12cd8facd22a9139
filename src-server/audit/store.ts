import { apiKeyDescription } from '../storage/api-key-rows.ts';
import type { Db } from '../storage/database.ts';
import { statement } from '../storage/database.ts';
import type { AccountFlag, AuditActor, AuditRejection } from '../wire/types.ts';
import { maskChanges, type FieldChange } from './diff.ts';

/** The audit log table (migrations 60, 61): writes, rejected API key uses and failed logins (repeated ones as one row with a count). */

/** general-settings `auditRetentionDays` when unset. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;

/**
 * Identical rejections within this span of the first share one row (audit/recorder.ts). Ten
 * minutes is fail2ban's default `findtime`, so a row's count reads against `maxretry` directly.
 * No row spans longer, which lets the time filters below use the `at` index.
 */
export const REJECTION_WINDOW_MS = 10 * 60 * 1000;

export const AUDIT_KINDS = ['write', 'rejected-key', 'failed-login', 'notification', 'account-flagged'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export const AUDIT_CHANNELS = ['localhost', 'jwt', 'session', 'api_key'] as const;

/** One write as a worker records it. */
export interface AuditWrite {
  at: number;
  actor: AuditActor;
  resource: string;
  recordId: string | null;
  operation: string;
  verb: string;
  status: number;
  diff: FieldChange[] | null;
  /** Why a refused write was refused (its error messages); null when it succeeded. */
  reason?: string | null;
}

/** One entry as the API answers it. */
export interface AuditEntry {
  id: number;
  at: string;
  kind: AuditKind;
  channel: string | null;
  actor: string | null;
  keyId: number | null;
  keyDescription: string | null;
  address: string;
  resource: string | null;
  recordId: string | null;
  operation: string | null;
  verb: string | null;
  path: string | null;
  status: number;
  reason: string | null;
  diff: FieldChange[];
  /** How many identical rejections this entry stands for (1 for a write). */
  count: number;
  /** The last of them (ISO 8601); `at` is the first. Equals `at` when count is 1. */
  lastAt: string;
}

const INSERT = `INSERT INTO audit_log (at, kind, channel, actor, key_id, key_description, address, resource, record_id,
  operation, verb, path, status, reason, diff, count, last_at)
  VALUES (@at, @kind, @channel, @actor, @keyId, @keyDescription, @address, @resource, @recordId,
  @operation, @verb, @path, @status, @reason, @diff, @count, @lastAt)`;

/** The description of an API key, recorded with the entry so it survives the key's deletion. */
function keyDescription(db: Db, keyId: number | null): string | null {
  if (keyId === null) return null;
  return apiKeyDescription(db, keyId) ?? null;
}

export function recordWrite(db: Db, write: AuditWrite): void {
  const { actor } = write;
  statement(db, INSERT).run({
    at: write.at,
    kind: 'write',
    channel: actor.channel,
    actor: actor.name,
    keyId: actor.keyId,
    keyDescription: keyDescription(db, actor.keyId),
    address: actor.address,
    resource: write.resource,
    recordId: write.recordId,
    operation: write.operation,
    verb: write.verb,
    path: null,
    status: write.status,
    reason: write.reason ?? null,
    // Masked again by name: a diff from any caller never stores a secret-named value.
    diff: write.diff ? JSON.stringify(maskChanges(write.diff)) : null,
    count: 1,
    lastAt: null,
  });
}

/** One notification send or failure, as the web thread records it (notifications/): never a secret. */
export interface AuditNotification {
  at: number;
  channelId: number;
  /** `send` (delivered), `send-failed` (an attempt failed, retried later) or `dropped` (given up, or no room). */
  operation: 'send' | 'send-failed' | 'dropped';
  /** The receiver's status (HTTP, SMTP reply code) or 0 when there was none. */
  status: number;
  /** What happened, in words: the channel, the subject, the receiver's answer (control characters removed). */
  reason: string;
}

export function recordNotification(db: Db, entry: AuditNotification): void {
  statement(db, INSERT).run({
    at: entry.at,
    kind: 'notification',
    channel: null,
    actor: null,
    keyId: null,
    keyDescription: null,
    address: '',
    resource: 'notification-channels',
    recordId: String(entry.channelId),
    operation: entry.operation,
    verb: null,
    path: null,
    status: entry.status,
    reason: entry.reason,
    diff: null,
    count: 1,
    lastAt: null,
  });
}

/**
 * Repeated identical rejections as the recorder gathered them: `count` attempts from `first` to
 * `last`, to add to row `rowId`, or to write as a new row when `rowId` is null.
 */
export interface RejectionGroup {
  rowId: number | null;
  first: number;
  last: number;
  count: number;
  rejection: AuditRejection;
}

const ADD_TO_ROW =
  'UPDATE audit_log SET count = count + @count, last_at = MAX(COALESCE(last_at, at), @last) WHERE id = @rowId';

/**
 * Records rejection groups in one transaction (the web thread batches them) and returns each
 * group's row id. A group whose row is gone (pruned) starts a new one.
 */
export function recordRejections(db: Db, groups: readonly RejectionGroup[]): number[] {
  const insert = statement(db, INSERT);
  const addToRow = statement(db, ADD_TO_ROW);
  return db.transaction(() =>
    groups.map(({ rowId, first, last, count, rejection }) => {
      if (rowId !== null && addToRow.run({ rowId, count, last }).changes === 1) return rowId;
      const keyId = rejection.keyId ?? null;
      const info = insert.run({
        at: first,
        kind: rejection.kind,
        channel: rejection.kind === 'rejected-key' ? 'api_key' : null,
        actor: rejection.login ?? null,
        keyId,
        keyDescription: keyDescription(db, keyId),
        address: rejection.address,
        resource: null,
        recordId: null,
        operation: null,
        verb: rejection.method,
        path: rejection.path,
        status: rejection.status,
        reason: rejection.reason,
        diff: null,
        count,
        lastAt: Math.max(first, last),
      });
      return Number(info.lastInsertRowid);
    }),
  )();
}

/**
 * Records an account flagged (or cleared) for failing from an address with registered phones
 * (firewall/account-flags.ts): the account as the actor, the address, the phones registered there.
 */
export function recordAccountFlag(db: Db, flag: AccountFlag): void {
  const where = flag.registeredAccounts.length ? `, where ${flag.registeredAccounts.join(', ')} registered` : '';
  const reason =
    flag.state === 'flagged'
      ? `Account ${flag.account} fails from ${flag.address}${where}: ${flag.failures} failures; flagged, the address is not banned`
      : `Account ${flag.account} at ${flag.address}: flag cleared`;
  const at = Date.parse(flag.at);
  statement(db, INSERT).run({
    at,
    kind: 'account-flagged',
    channel: null,
    actor: flag.account,
    keyId: null,
    keyDescription: null,
    address: flag.address,
    resource: null,
    recordId: null,
    operation: flag.state,
    verb: null,
    path: null,
    status: 0,
    reason,
    diff: null,
    count: flag.state === 'flagged' ? flag.failures : 1,
    lastAt: at,
  });
}

/** Deletes entries whose last attempt is older than `retentionDays`; returns how many. */
export function pruneAuditLog(db: Db, now: number, retentionDays: number): number {
  return statement(db, 'DELETE FROM audit_log WHERE at < @cutoff AND COALESCE(last_at, at) < @cutoff').run({
    cutoff: now - retentionDays * 86_400_000,
  }).changes;
}

export interface AuditQuery {
  search?: string;
  actor?: string;
  resource?: string;
  channel?: string;
  kind?: AuditKind;
  since?: number;
  until?: number;
  limit: number;
  offset: number;
}

interface Row {
  id: number;
  at: number;
  kind: AuditKind;
  channel: string | null;
  actor: string | null;
  key_id: number | null;
  key_description: string | null;
  address: string;
  resource: string | null;
  record_id: string | null;
  operation: string | null;
  verb: string | null;
  path: string | null;
  status: number;
  reason: string | null;
  diff: string | null;
  count: number;
  last_at: number | null;
}

const toEntry = (row: Row): AuditEntry => ({
  id: row.id,
  at: new Date(row.at).toISOString(),
  kind: row.kind,
  channel: row.channel,
  actor: row.actor,
  keyId: row.key_id,
  keyDescription: row.key_description,
  address: row.address,
  resource: row.resource,
  recordId: row.record_id,
  operation: row.operation,
  verb: row.verb,
  path: row.path,
  status: row.status,
  reason: row.reason,
  diff: row.diff ? (JSON.parse(row.diff) as FieldChange[]) : [],
  count: row.count,
  lastAt: new Date(row.last_at ?? row.at).toISOString(),
});

/** Newest first, filtered; `total` counts every match. */
export function queryAuditLog(db: Db, query: AuditQuery): { total: number; entries: AuditEntry[] } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (query.search) {
    where.push(`(actor LIKE @search ESCAPE '\\' OR key_description LIKE @search ESCAPE '\\' OR resource LIKE @search ESCAPE '\\'
      OR record_id LIKE @search ESCAPE '\\' OR operation LIKE @search ESCAPE '\\' OR reason LIKE @search ESCAPE '\\'
      OR address LIKE @search ESCAPE '\\' OR path LIKE @search ESCAPE '\\' OR diff LIKE @search ESCAPE '\\')`);
    params.search = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
  if (query.actor) {
    // A user name, or an API key as its id (`12` or `key:12`).
    const keyId = /^(?:key:)?(\d+)$/.exec(query.actor)?.[1];
    where.push(keyId ? '(actor = @actor OR key_id = @keyId)' : 'actor = @actor');
    params.actor = query.actor;
    if (keyId) params.keyId = Number(keyId);
  }
  if (query.resource) {
    where.push('resource = @resource');
    params.resource = query.resource;
  }
  if (query.channel) {
    where.push('channel = @channel');
    params.channel = query.channel;
  }
  if (query.kind) {
    where.push('kind = @kind');
    params.kind = query.kind;
  }
  if (query.since !== undefined) {
    // An entry counts when any attempt falls in the range; no row spans more than the window (index on at).
    where.push('at >= @sinceFirst AND COALESCE(last_at, at) >= @since');
    params.since = query.since;
    params.sinceFirst = query.since - REJECTION_WINDOW_MS;
  }
  if (query.until !== undefined) {
    where.push('at <= @until');
    params.until = query.until;
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM audit_log ${clause}`).get(params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT * FROM audit_log ${clause} ORDER BY at DESC, id DESC LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: query.limit, offset: query.offset }) as Row[];
  return { total, entries: rows.map(toEntry) };
}

export function findAuditEntry(db: Db, id: number): AuditEntry | undefined {
  const row = db.prepare('SELECT * FROM audit_log WHERE id = ?').get(id) as Row | undefined;
  return row ? toEntry(row) : undefined;
}
