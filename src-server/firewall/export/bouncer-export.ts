import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../storage/database.ts';
import { badRequest, HttpError, payloadTooLarge } from '../../wire/errors.ts';
import type { BanStore } from '../bans/index.ts';
import {
  blocklistFeed,
  gzippedFeed,
  parseBlocklistQuery,
  type FeedCursors,
  type RenderedFeed,
} from '../feeds/index.ts';
import type { BouncerHosts } from './bouncer-hosts.ts';
import {
  type DecisionSnapshotCache,
  type DeletedTails,
  GZIP_ABOVE_BYTES,
  matches,
  NEW_OPEN,
  parseDecisionQuery,
  publishedCandidates,
  type SnapshotCompressor,
  snapshotCount,
  snapshotParts,
} from '../snapshot/index.ts';
import type { CursorStore, RefusalCode } from './cursor-store.ts';
import { hasOwnView, type KeyExportOptions, type KeyViews } from '../feeds/index.ts';
import type { FirewallState } from '../filters/index.ts';
import { type IntrusionDetector, isBannedAddress, liftHttpBan } from '../intrusion/index.ts';
import type { KeyDeliveryState } from './key-delivery-state.ts';
import type { KeyStreams } from './key-stream.ts';
import { viewStream, withDeleted } from './view-stream.ts';
import { describeIssues, USAGE_METRICS_MAX_BYTES, usageMetricsSchema } from './usage-metrics.ts';

type Query = Record<string, string | string[] | undefined>;

/** A JSON answer made of pre-rendered parts, sent as they are (never joined into one buffer). */
export interface JsonAnswer {
  parts: readonly Buffer[];
  /** The parts are one gzip member (`Content-Encoding: gzip`). */
  gzipped: boolean;
}

/** One stream poll as the route sees it. */
export interface StreamPoll {
  keyId: number;
  expandRanges: boolean;
  startup: boolean;
  /** The client takes gzip (`Accept-Encoding`). */
  acceptsGzip: boolean;
  /** A GET carries decisions, so it is recorded (the key's window, the host); HEAD only checks the key. */
  served?: { ip: string; userAgent: string };
  /** The key's cap and aggregation: a key with either gets its own view (`key-view.ts`); others the shared snapshot. */
  view?: KeyExportOptions & { keyName: string };
}

/**
 * The bouncer export as one entry point: what the `/firewall-bouncer` routes serve (the stream,
 * live decisions, the whitelist, the router feed), what they record (polls, refusals, usage
 * metrics) and how a source is admitted. The routes only adapt HTTP to these calls.
 */
export interface BouncerExport {
  /** Whether the source has a ban in force (checked before the key: a banned source needs a valid one). */
  isBanned(ip: string): boolean;
  /** A refused credential: shown on the host, and on a known key's bouncer (refused, never green). */
  refused(ip: string, reason: string, key?: { keyId: number; code: RefusalCode }): void;
  /** A valid key from `ip`: lifts the `http` ban its wrong keys earned (when `banned`), clears the host's refusals. */
  admitted(ip: string, keyId: number, banned: boolean): void;
  /**
   * SPEC rules 1-3: the full snapshot in `new`; in `deleted`, what this key may hold that is gone.
   * Large answers go as one gzip member to clients that accept it. A served poll's window is
   * recorded here, before the route sends its first byte.
   */
  stream(poll: StreamPoll): Promise<JsonAnswer>;
  /** `/v1/decisions`: the active decisions the LAPI filters select, or `null`; 400 for a bad filter. */
  decisions(query: Query): JsonAnswer;
  /** `/v1/whitelist`: the flat array of trusted ranges. */
  whitelist(): JsonAnswer;
  /** `/v1/usage-metrics`: validated (400 missing, 413 too large, 422 schema), then folded into the host's record. */
  reportUsage(report: { keyId: number; ip: string; userAgent: string; body: unknown; declaredBytes?: number }): void;
  /**
   * The router feed for a query (400 for a bad one), recorded as a poll when `served`; a served MikroTik feed is a
   * delta from `since` when known; a capped or aggregating key gets its own view.
   */
  blocklist(
    query: Query,
    served?: { keyId: number; ip: string; userAgent: string },
    view?: KeyExportOptions & { keyName: string },
  ): RenderedFeed;
  /** The gzip form of a rendered feed, compressed once per feed off the event loop. */
  gzipped(feed: RenderedFeed): Promise<Buffer>;
}

/** What the export is built from: the firewall's parts and the server's clock and log. */
interface BouncerExportParts {
  db: Db;
  clock: Clock;
  logger: Logger;
  state: FirewallState;
  bans: BanStore;
  detector: IntrusionDetector;
  snapshots: DecisionSnapshotCache;
  compressor: SnapshotCompressor;
  deletedTails: DeletedTails;
  cursors: CursorStore;
  hosts: BouncerHosts;
  feedCursors: FeedCursors;
  views: KeyViews;
  keyStreams: KeyStreams;
  deliveryState: KeyDeliveryState;
}

const plain = (parts: readonly Buffer[]): JsonAnswer => ({ parts, gzipped: false });
const byteLength = (parts: readonly Buffer[]) => parts.reduce((sum, part) => sum + part.length, 0);

export function createBouncerExport(parts: BouncerExportParts): BouncerExport {
  const feed = blocklistFeed(parts);
  return {
    isBanned: (ip) => isBannedAddress(parts.bans, ip),

    refused(ip, reason, key) {
      parts.hosts.rejected(ip, key?.keyId ?? null, reason);
      if (key) parts.cursors.refused(key.keyId, { at: parts.clock.now(), ip, code: key.code, reason });
    },

    admitted(ip, keyId, banned) {
      const reason = `valid API key #${keyId} presented on the bouncer export`;
      if (banned && liftHttpBan(parts, parts.bans, parts.detector, ip, reason))
        parts.logger.info({ ip, keyId }, 'http ban lifted: a valid bouncer key was presented');
      parts.hosts.cleared(ip);
    },

    /*
     * `deleted` is computed from the key's last REPEAT_POLLS answers, so each deletion is repeated on
     * that many answers: a cut answer, failed polls or a crash at any moment lose none.
     */
    async stream(poll) {
      if (poll.view && hasOwnView(poll.view)) return viewStream(parts, poll, poll.view);
      const expanded = poll.expandRanges;
      const latest = parts.snapshots.get();
      const gzip = byteLength(snapshotParts(latest, expanded)) > GZIP_ABOVE_BYTES && poll.acceptsGzip;
      const snapshot = gzip ? await parts.compressor.servable(latest, expanded) : latest;
      const since = poll.startup ? undefined : parts.cursors.deletedSince(poll.keyId);
      let { tail, count } = parts.deletedTails.tail(since, snapshot, expanded);
      // A key whose cap or aggregation was just removed: what only its view sent is still deleted.
      const published = expanded
        ? (identity: string) => parts.snapshots.published.expandedHas(identity)
        : (identity: string) => parts.snapshots.published.plain.has(identity);
      const leftovers = parts.keyStreams.leftovers(poll.keyId, published, poll.served !== undefined);
      if (leftovers?.length) ({ tail, count } = withDeleted(tail, count, leftovers));
      if (poll.served && poll.view) parts.deliveryState.served(poll.keyId, poll.view.keyName, null);
      const body = gzip
        ? await parts.compressor.answer(snapshot, expanded, tail)
        : [NEW_OPEN, ...snapshotParts(snapshot, expanded), Buffer.from(tail)];
      if (poll.served) {
        const { ip, userAgent } = poll.served;
        const newCount = snapshotCount(snapshot, expanded);
        parts.cursors.record(poll.keyId, snapshot.version, ip, newCount, count, poll.startup);
        parts.hosts.polled(poll.keyId, ip, userAgent);
      }
      return { parts: body, gzipped: gzip };
    },

    decisions(query) {
      const parsed = parseDecisionQuery(query);
      if (!parsed.ok) throw badRequest(parsed.message);
      parts.snapshots.get();
      const found = publishedCandidates(parts.snapshots, parsed.query)
        .filter((candidate) => matches(parsed.query, candidate))
        .map((candidate) => candidate.json());
      return plain([Buffer.from(found.length ? `[${found.join(',')}]` : 'null')]);
    },

    whitelist: () => plain([Buffer.from(parts.state.whitelistJson)]),

    reportUsage({ keyId, ip, userAgent, body, declaredBytes }) {
      if (
        (declaredBytes !== undefined && declaredBytes > USAGE_METRICS_MAX_BYTES) ||
        JSON.stringify(body ?? null).length > USAGE_METRICS_MAX_BYTES
      ) {
        throw payloadTooLarge(USAGE_METRICS_MAX_BYTES);
      }
      if (body === undefined) throw badRequest('The usage-metrics body is missing: send the JSON report.');
      const parsed = usageMetricsSchema.safeParse(body);
      if (!parsed.success) throw new HttpError(422, [`Invalid usage metrics: ${describeIssues(parsed.error)}.`]);
      parts.hosts.reported(keyId, ip, parsed.data, userAgent);
    },

    blocklist(query, served, view) {
      const parsed = parseBlocklistQuery(query);
      if (!parsed.ok) throw badRequest(parsed.message);
      const own = view && hasOwnView(view) ? parts.views.entriesForKey(view) : undefined;
      // A fetch with a key gets its MikroTik delta; `since` is any text: an unknown one means a full list.
      const since = Array.isArray(query.since) ? query.since[0] : query.since;
      const rendered = feed(parsed.options, served && { keyId: served.keyId, since }, own);
      if (served) {
        parts.hosts.polled(served.keyId, served.ip, served.userAgent);
        parts.cursors.fetched(served.keyId, served.ip);
        parts.deliveryState.fetched(served.keyId, own?.version ?? parts.snapshots.get().version);
        if (view) parts.deliveryState.served(served.keyId, view.keyName, own ?? null);
      }
      return rendered;
    },

    gzipped: gzippedFeed,
  };
}
