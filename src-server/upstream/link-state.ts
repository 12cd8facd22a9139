import type { Db } from '../storage/database.ts';

/** One direction of the link, as the console shows it. */
export interface DirectionStatus {
  enabled: boolean;
  /** `off` (disabled), `waiting` (nothing done yet), `ok` (last exchange succeeded), `error`. */
  state: 'off' | 'waiting' | 'ok' | 'error';
  /** Epoch ms of the last successful exchange. */
  lastOkAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
}

/** What the web thread's link reports; stored in crowdsec_link_state for link:getStatus (a worker). */
export interface LinkStatus {
  enabled: boolean;
  url: string;
  push: DirectionStatus & {
    /** Epoch ms when the LAPI last accepted alerts or a deletion ("last push"). */
    lastSentAt: number | null;
    /** Alerts accepted by the LAPI, decisions deleted upstream, entries dropped (queue full, ban ended unsent, refused). */
    sent: number;
    deleted: number;
    dropped: number;
  };
  pull: DirectionStatus & {
    /** Upstream decisions held now (before whitelist and echo checks). */
    decisions: number;
    /**
     * Decisions not applied, by reason: `scope:Country`, `scope:AS`, `type:captcha`, `protected` (whitelist,
     * trusted, loopback), `echo` (this PBX's own), `invalid`.
     */
    skipped: Record<string, number>;
    /** Answers dropped (malformed, too large, too slow), in total. */
    droppedAnswers: number;
  };
  updatedAt: number;
}

const direction = (enabled: boolean): DirectionStatus => ({
  enabled,
  state: enabled ? 'waiting' : 'off',
  lastOkAt: null,
  lastError: null,
  lastErrorAt: null,
});

/** The status of a link that never ran. */
export function initialLinkStatus(enabled = false, url = '', push = false, pull = false): LinkStatus {
  return {
    enabled,
    url,
    push: { ...direction(enabled && push), lastSentAt: null, sent: 0, deleted: 0, dropped: 0 },
    pull: { ...direction(enabled && pull), decisions: 0, skipped: {}, droppedAnswers: 0 },
    updatedAt: 0,
  };
}

export function writeLinkStatus(db: Db, status: LinkStatus): void {
  db.prepare(
    'INSERT INTO crowdsec_link_state (id, value) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value',
  ).run(JSON.stringify(status));
}

export function readLinkStatus(db: Db): LinkStatus | undefined {
  const row = db.prepare('SELECT value FROM crowdsec_link_state WHERE id = 1').get() as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as LinkStatus) : undefined;
}

/** Entries waiting in the push queue. */
export function pushQueueLength(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM crowdsec_push_queue').get() as { n: number }).n;
}
