import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../storage/database.ts';
import { badRequest, HttpError, payloadTooLarge } from '../wire/errors.ts';
import type { BanStore } from './ban-store.ts';
import { parseBlocklistQuery } from './blocklist.ts';
import { blocklistFeed, gzippedFeed, type RenderedFeed } from './blocklist-feed.ts';
import type { BouncerHosts } from './bouncer-hosts.ts';
import { GZIP_ABOVE_BYTES, NEW_OPEN, type SnapshotCompressor } from './compressed-snapshot.ts';
import type { CursorStore, RefusalCode } from './cursor-store.ts';
import { matches, parseDecisionQuery } from './decision-query.ts';
import { snapshotCount, snapshotParts, type DecisionSnapshotCache } from './decision-snapshot.ts';
import type { DeletedTails } from './deleted-tails.ts';
import type { FirewallState } from './firewall-state.ts';
import { isBannedAddress, liftHttpBan } from './http-bans.ts';
import type { IntrusionDetector } from './intrusion-detector.ts';
import { publishedCandidates } from './published-query.ts';
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
  /** The router feed for a query (400 for a bad one), recorded as the key's poll when `served` (cursor and host). */
  blocklist(query: Query, served?: { keyId: number; ip: string; userAgent: string }): RenderedFeed;
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
      const expanded = poll.expandRanges;
      const latest = parts.snapshots.get();
      const gzip = byteLength(snapshotParts(latest, expanded)) > GZIP_ABOVE_BYTES && poll.acceptsGzip;
      const snapshot = gzip ? await parts.compressor.servable(latest, expanded) : latest;
      const since = poll.startup ? undefined : parts.cursors.deletedSince(poll.keyId);
      const { tail, count } = parts.deletedTails.tail(since, snapshot, expanded);
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

    blocklist(query, served) {
      const parsed = parseBlocklistQuery(query);
      if (!parsed.ok) throw badRequest(parsed.message);
      const rendered = feed(parsed.options);
      if (served) {
        parts.hosts.polled(served.keyId, served.ip, served.userAgent);
        parts.cursors.fetched(served.keyId, served.ip);
      }
      return rendered;
    },

    gzipped: gzippedFeed,
  };
}
