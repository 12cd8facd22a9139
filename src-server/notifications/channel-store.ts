import { revealSecret, statement, type Db } from '../storage/database.ts';
import { NOTIFICATION_SECRET_CONTEXT } from '../storage/migrations/085-notifications.ts';
import type { ChannelConfig, SendOutcome } from './channel-config.ts';
import type { NotificationRule } from './rule-digest.ts';

interface ChannelRow extends Omit<ChannelConfig, 'enabled' | 'tlsVerify' | 'secret'> {
  enabled: number;
  tlsVerify: number;
  secret: string | null;
}

/** A channel with its secret in clear, for the sender only. */
export function loadChannel(db: Db, id: number): ChannelConfig | undefined {
  const row = statement(db, 'SELECT * FROM notification_channels WHERE id = ?').get(id) as ChannelRow | undefined;
  if (!row) return undefined;
  return {
    ...row,
    enabled: row.enabled === 1,
    tlsVerify: row.tlsVerify === 1,
    secret: row.secret ? revealSecret(db, row.secret, NOTIFICATION_SECRET_CONTEXT) : '',
  };
}

interface RuleRow extends Omit<NotificationRule, 'checks' | 'recoveries' | 'enabled'> {
  checks: string;
  recoveries: number;
  enabled: number;
}

/** Every rule whose channel is enabled, by id. */
export function loadActiveRules(db: Db): Map<number, NotificationRule> {
  const rows = statement(
    db,
    `SELECT r.* FROM notification_rules r JOIN notification_channels c ON c.id = r.channelId
      WHERE r.enabled = 1 AND c.enabled = 1`,
  ).all() as RuleRow[];
  return new Map(
    rows.map((row) => [
      row.id,
      { ...row, checks: JSON.parse(row.checks) as string[], recoveries: row.recoveries === 1, enabled: true },
    ]),
  );
}

/** The channel's last send, as `lastResult` shows it. */
export function writeLastResult(db: Db, id: number, outcome: SendOutcome, at: number, test: boolean): void {
  statement(db, 'UPDATE notification_channels SET lastResult = ? WHERE id = ?').run(
    JSON.stringify({ at: new Date(at).toISOString(), ok: outcome.ok, message: outcome.message, test }),
    id,
  );
}

/** A channel's stored row as the resource reads it (secret still sealed), or undefined. */
export function channelRow(db: Db, id: unknown): Record<string, unknown> | undefined {
  return statement(db, 'SELECT * FROM notification_channels WHERE id = ?').get(id) as
    | Record<string, unknown>
    | undefined;
}

/** Whether a channel with this id exists (a rule names one). */
export function channelExists(db: Db, id: unknown): boolean {
  return statement(db, 'SELECT 1 FROM notification_channels WHERE id = ?').get(id) !== undefined;
}
