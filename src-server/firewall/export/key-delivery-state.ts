import type { Logger } from 'pino';
import type { ServerBus } from '../../bus.ts';
import type { Clock } from '../../clock.ts';
import { tryBackgroundWrite } from '../../storage/background-write.ts';
import type { Db } from '../../storage/database.ts';
import { AGGREGATE_SCENARIO, type KeyView } from '../feeds/index.ts';

/** Own bans left out are stored by identity up to this many (delivery names them; the count is always whole). */
const MAX_STORED_OWN = 10_000;
/** A feed key's fetch is written when its version changes, else at most this often. */
const FETCH_WRITE_MS = 60_000;

interface Known {
  /** The view last written (views are shared per snapshot and options, so the same object means nothing changed). */
  view: KeyView | undefined;
  own: number;
  feedVersion: number | undefined;
  feedWrittenAt: number;
}

/**
 * What each key was last served, written for the workers that count delivery
 * (`key_delivery_state`): a capped key's left-out entries (counts by class, this PBX's own bans by
 * identity), a feed key's last fetch. Written only when it changes (a new snapshot version for
 * the key), so polls cost nothing more. When a capped key starts or stops leaving out own bans,
 * the bus carries `key-capped-own` (the health checks turn it into a warning).
 */
export class KeyDeliveryState {
  private readonly known = new Map<number, Known>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly bus: Pick<ServerBus, 'emit'>,
    private readonly logger?: Logger,
  ) {
    const rows = db.prepare('SELECT key_id, cap, left_out_own, feed_version FROM key_delivery_state').all() as Array<{
      key_id: number;
      cap: number | null;
      left_out_own: string;
      feed_version: number | null;
    }>;
    for (const row of rows)
      this.known.set(row.key_id, {
        view: undefined,
        own: row.cap === null ? 0 : ownCount(row.left_out_own),
        feedVersion: row.feed_version ?? undefined,
        feedWrittenAt: 0,
      });
  }

  /** A capped key was served `view` (a null view: the key has no cap now). */
  served(keyId: number, keyName: string, view: KeyView | null): void {
    if (view === null) {
      const was = this.known.get(keyId);
      if (!was || (was.view === undefined && was.own === 0)) return; // never capped: one lookup
    }
    const known = this.entry(keyId);
    if (view !== null && known.view === view) return;
    known.view = view ?? undefined;
    const own = view?.cap === null || !view ? 0 : view.leftOutOwn.length;
    const write = () =>
      this.db
        .prepare(
          `INSERT INTO key_delivery_state (key_id, cap, left_out, left_out_own, served_aggregates) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(key_id) DO UPDATE SET cap = excluded.cap, left_out = excluded.left_out,
             left_out_own = excluded.left_out_own, served_aggregates = excluded.served_aggregates`,
        )
        .run(
          keyId,
          view?.cap ?? null,
          JSON.stringify(view?.cap != null ? view.leftOut : {}),
          JSON.stringify(view?.cap != null ? view.leftOutOwn.slice(0, MAX_STORED_OWN).map((e) => e.identity) : []),
          JSON.stringify(
            (view?.entries ?? []).filter((e) => e.key.scenario === AGGREGATE_SCENARIO).map((e) => e.key.value),
          ),
        );
    tryBackgroundWrite(this.db, write, (error) => {
      known.view = undefined; // written again at the next poll
      this.logger?.warn({ err: error, keyId }, 'capped key state not saved yet; retrying at the next poll');
    });
    if (known.own > 0 !== own > 0) this.bus.emit({ type: 'key-capped-own', keyId, keyName, leftOutOwn: own });
    known.own = own;
  }

  /** A feed key fetched the feed at `version` (what delivery counts it by). */
  fetched(keyId: number, version: number): void {
    const known = this.entry(keyId);
    const now = this.clock.now();
    if (known.feedVersion === version && now - known.feedWrittenAt < FETCH_WRITE_MS) return;
    known.feedVersion = version;
    known.feedWrittenAt = now;
    tryBackgroundWrite(
      this.db,
      () =>
        this.db
          .prepare(
            `INSERT INTO key_delivery_state (key_id, feed_version, feed_at) VALUES (?, ?, ?)
             ON CONFLICT(key_id) DO UPDATE SET feed_version = excluded.feed_version, feed_at = excluded.feed_at`,
          )
          .run(keyId, version, now),
      (error) => {
        known.feedVersion = undefined;
        this.logger?.warn({ err: error, keyId }, 'feed fetch not saved yet; retrying at the next fetch');
      },
    );
  }

  private entry(keyId: number): Known {
    let known = this.known.get(keyId);
    if (!known) {
      known = { view: undefined, own: 0, feedVersion: undefined, feedWrittenAt: 0 };
      this.known.set(keyId, known);
    }
    return known;
  }
}

function ownCount(text: string): number {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.length : 0;
  } catch {
    return 0;
  }
}

/** The merged CIDRs each merging key was last served, as stored (read once at start by the key streams). */
export function storedAggregates(db: Db): Map<number, string[]> {
  const rows = db
    .prepare("SELECT key_id, served_aggregates FROM key_delivery_state WHERE served_aggregates != '[]'")
    .all() as Array<{ key_id: number; served_aggregates: string }>;
  const out = new Map<number, string[]>();
  for (const row of rows) {
    try {
      const values: unknown = JSON.parse(row.served_aggregates);
      if (Array.isArray(values))
        out.set(
          row.key_id,
          values.filter((v): v is string => typeof v === 'string'),
        );
    } catch {
      // Unreadable: nothing to delete.
    }
  }
  return out;
}
