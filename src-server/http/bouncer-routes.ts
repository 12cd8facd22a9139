import type Router from '@koa/router';
import type { Context } from 'koa';
import { authenticateApiKeyOnly } from '../auth/api-key-auth.ts';
import type { StoredApiKey } from '../auth/api-key-store.ts';
import { remoteIp } from '../auth/remote-address.ts';
import { renderError } from '../wire/envelope.ts';
import { badRequest, forbidden, HttpError, methodNotAllowed, notFound, payloadTooLarge } from '../wire/errors.ts';
import { sendEnvelope } from './respond.ts';
import type { Services } from '../services.ts';
import { isBannedAddress, liftHttpBan } from '../firewall/http-bans.ts';
import type { BanStore } from '../firewall/ban-store.ts';
import type { FirewallState } from '../firewall/firewall-state.ts';
import type { IntrusionDetector } from '../firewall/intrusion-detector.ts';
import type { BouncerHosts } from '../firewall/bouncer-hosts.ts';
import { GZIP_ABOVE_BYTES, NEW_OPEN, type SnapshotCompressor } from '../firewall/compressed-snapshot.ts';
import type { CursorStore } from '../firewall/cursor-store.ts';
import { banCandidate, matches, parseDecisionQuery, type Candidate } from '../firewall/decision-query.ts';
import { manualEntryJson, snapshotCount, snapshotParts, type DecisionSnapshotCache } from '../firewall/decision-snapshot.ts';
import type { DeletedTails } from '../firewall/deleted-tails.ts';
import { describeIssues, USAGE_METRICS_MAX_BYTES, usageMetricsSchema } from '../firewall/usage-metrics.ts';

export const BOUNCER_PREFIX = '/pbxcore/api/v3/firewall-bouncer';
const BOUNCER_PATH = /^\/pbxcore\/api\/v3\/firewall-bouncer(?:\/.*)?$/;


export interface BouncerParts {
  services: Services;
  state: FirewallState;
  bans: BanStore;
  detector: IntrusionDetector;
  snapshots: DecisionSnapshotCache;
  compressor: SnapshotCompressor;
  deletedTails: DeletedTails;
  cursors: CursorStore;
  hosts: BouncerHosts;
}

/**
 * Sends JSON made of pre-rendered parts without joining them into one buffer: the snapshot is
 * shared by every poll and written as-is. HEAD gets the same headers and no body.
 */
function sendJsonParts(ctx: Context, parts: Buffer[], gzipped = false, status = 200): void {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  ctx.status = status;
  ctx.respond = false;
  ctx.res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': length,
    'Cache-Control': 'no-store',
    Vary: 'Accept-Encoding',
    ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
  });
  if (ctx.method === 'HEAD') {
    ctx.res.end();
    return;
  }
  for (const part of parts) ctx.res.write(part);
  ctx.res.end();
}

/**
 * Calls `delivered` once the whole response was handed to the kernel on a socket still open.
 * Node emits 'finish' even when the client hung up mid-body (the socket is destroyed by then), so
 * that alone does not prove delivery. Data the kernel accepted before a later reset cannot be told
 * apart from data the client read: that is the limit of what HTTP/1.1 lets a server know.
 */
function onceDelivered(ctx: Context, delivered: () => void): void {
  const socket = ctx.res.socket;
  ctx.res.once('finish', () => {
    if (!socket || socket.destroyed) return;
    if (socket.writableLength === 0) return delivered();
    const onDrain = () => {
      socket.off('close', onClose);
      if (!socket.destroyed) delivered();
    };
    const onClose = () => socket.off('drain', onDrain);
    socket.once('drain', onDrain);
    socket.once('close', onClose);
  });
}

/**
 * SPEC rules 1-3: the full snapshot in `new`; in `deleted`, what this key's cursor holds that is
 * gone. Large answers go as one gzip member to clients that accept it (Go's HTTP client, which
 * CrowdSec bouncers use, always does). The cursor moves only once the whole body was handed to
 * the socket: a poll cut mid-body leaves it where it was, so its `deleted` come again.
 */
async function answerStream(ctx: Context, parts: BouncerParts, key: StoredApiKey): Promise<void> {
  const rawStartup = ctx.query.startup;
  const startup = (Array.isArray(rawStartup) ? rawStartup[rawStartup.length - 1] : rawStartup) === 'true';
  const expanded = key.expandRanges;
  const latest = parts.snapshots.get();
  const text = snapshotParts(latest, expanded);
  const gzip = text.reduce((sum, part) => sum + part.length, 0) > GZIP_ABOVE_BYTES && ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  const snapshot = gzip ? await parts.compressor.servable(latest, expanded) : latest;
  const since = startup ? undefined : parts.cursors.servedVersion(key.id);
  const { tail, count } = parts.deletedTails.tail(since, snapshot, expanded);
  const body = gzip ? await parts.compressor.answer(snapshot, expanded, tail) : [NEW_OPEN, ...text, Buffer.from(tail)];
  // HEAD only checks the key: it must not move the cursor, or its `deleted` would be lost.
  if (ctx.method === 'GET') {
    const ip = remoteIp(ctx);
    const userAgent = ctx.get('user-agent');
    onceDelivered(ctx, () => {
      parts.cursors.record(key.id, snapshot.version, ip, snapshotCount(snapshot, expanded), count);
      parts.hosts.polled(key.id, ip, userAgent);
    });
  }
  sendJsonParts(ctx, body, gzip);
}

/**
 * `GET /v1/decisions`: the active decisions the LAPI filters select (CrowdSec live mode asks with
 * `ip`), or `null` when none does, as the CrowdSec local API answers. Never the whole list for a
 * filter that matches nothing.
 */
function answerDecisions(ctx: Context, parts: BouncerParts): void {
  const parsed = parseDecisionQuery(ctx.query);
  if (!parsed.ok) throw badRequest(parsed.message);
  const { query } = parsed;
  const snapshot = parts.snapshots.get();
  const now = parts.services.clock.now();
  const candidates: Candidate[] = snapshot.manual.plain.entries.map((entry) => ({ key: entry.key, cidr: entry.cidr, json: () => manualEntryJson(entry) }));
  // A single-address question needs only the bans holding that address (its own and range bans), not a scan of every ban.
  const single = query.range?.contains && (query.range.cidr[1] === 32 || query.range.cidr[1] === 128);
  const bans = single ? parts.bans.covering(query.range!.cidr[0].toString()) : parts.bans.active();
  for (const ban of bans) candidates.push(banCandidate(ban, () => parts.snapshots.banJson(ban, now)));
  const found = candidates.filter((candidate) => matches(query, candidate)).map((candidate) => candidate.json());
  sendJsonParts(ctx, [Buffer.from(found.length ? `[${found.join(',')}]` : 'null')]);
}

/**
 * `POST /v1/usage-metrics`: the report current bouncers send every 15 minutes. Validated, then
 * folded into the host's record (type, version, OS, dropped counts per origin). Answered 201 with
 * no content, as the LAPI does.
 */
function acceptUsageMetrics(ctx: Context, parts: BouncerParts, key: StoredApiKey): void {
  const declared = ctx.request.length;
  const body = ctx.request.body;
  if ((declared !== undefined && declared > USAGE_METRICS_MAX_BYTES) || JSON.stringify(body ?? null).length > USAGE_METRICS_MAX_BYTES) {
    throw payloadTooLarge(USAGE_METRICS_MAX_BYTES);
  }
  if (body === undefined) throw badRequest('The usage-metrics body is missing: send the JSON report.');
  const parsed = usageMetricsSchema.safeParse(body);
  if (!parsed.success) throw new HttpError(422, [`Invalid usage metrics: ${describeIssues(parsed.error)}.`]);
  parts.hosts.reported(key.id, remoteIp(ctx), parsed.data, ctx.get('user-agent'));
  ctx.status = 201;
  ctx.respond = false;
  ctx.res.writeHead(201, { 'Content-Length': 0, 'Cache-Control': 'no-store' });
  ctx.res.end();
}

/** The bouncer's error shape: the envelope plus a top-level `message`, which CrowdSec clients print. */
function sendBouncerError(ctx: Context, error: HttpError): void {
  const message = error.messages.join('; ');
  sendEnvelope(ctx, renderError(error.status, error.messages, { message }), error.headers);
}

const ENDPOINTS: Record<string, string[]> = {
  '/v1/decisions/stream': ['GET', 'HEAD'],
  '/v1/decisions': ['GET', 'HEAD'],
  '/v1/whitelist': ['GET', 'HEAD'],
  '/v1/usage-metrics': ['POST'],
};

/**
 * Authenticates a bouncer: API key only (no JWT, no session, no localhost bypass), checked before
 * the ban guard. Every endpoint is part of the read protocol, so `read` on the export prefix
 * covers them all. A refused source is recorded for the console; a banned source that presents a
 * valid key is served, and its `http` ban (earned with a wrong key) is lifted, so a fixed bouncer
 * is back within one poll.
 */
function authenticateBouncer(ctx: Context, parts: BouncerParts): StoredApiKey {
  const ip = remoteIp(ctx);
  const banned = isBannedAddress(parts.bans, ip);
  let key: StoredApiKey;
  try {
    key = authenticateApiKeyOnly(parts.services, ctx, BOUNCER_PREFIX, 'GET');
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    parts.hosts.rejected(ip, null, error.messages.join('; '));
    if (banned) throw forbidden('Your address is banned by the intrusion-ban rules of this server; present a valid API key or retry after the ban expires.');
    throw error;
  }
  if (banned && liftHttpBan(parts.services, parts.bans, parts.detector, ip, `valid API key #${key.id} presented on the bouncer export`)) {
    parts.services.logger.info({ ip, keyId: key.id }, 'http ban lifted: a valid bouncer key was presented');
  }
  parts.hosts.cleared(ip);
  return key;
}

/** Registers `/firewall-bouncer/v1/...`: served on the web thread from the shared snapshot, never through the queue. */
export function registerBouncerRoutes(router: Router, parts: BouncerParts): void {
  router.all(BOUNCER_PATH, async (ctx) => {
    try {
      // Authentication comes first so an anonymous caller learns nothing about the paths.
      const key = authenticateBouncer(ctx, parts);
      const sub = ctx.path.slice(BOUNCER_PREFIX.length).replace(/\/+$/, '');
      const verbs = ENDPOINTS[sub];
      if (!verbs) throw notFound(`No bouncer endpoint at ${ctx.path.slice(0, 200)}.`);
      if (!verbs.includes(ctx.method)) throw methodNotAllowed(`${ctx.method} is not allowed here; use ${verbs.join(' or ')}.`, verbs);
      if (sub === '/v1/decisions/stream') return await answerStream(ctx, parts, key);
      if (sub === '/v1/decisions') return answerDecisions(ctx, parts);
      if (sub === '/v1/usage-metrics') return acceptUsageMetrics(ctx, parts, key);
      return sendJsonParts(ctx, [Buffer.from(parts.state.whitelistJson)]);
    } catch (error) {
      if (error instanceof HttpError) return sendBouncerError(ctx, error);
      throw error;
    }
  });
}
