import type Router from '@koa/router';
import type { Context } from 'koa';
import { authenticateApiKeyOnly, refusedKeyOf } from '../auth/api-key-auth.ts';
import type { StoredApiKey } from '../auth/api-key-store.ts';
import { presentedCredential, type PresentedCredential } from '../auth/credentials.ts';
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
import { matches, parseDecisionQuery } from '../firewall/decision-query.ts';
import { publishedCandidates } from '../firewall/published-query.ts';
import { snapshotCount, snapshotParts, type DecisionSnapshotCache } from '../firewall/decision-snapshot.ts';
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
function sendJsonParts(ctx: Context, parts: readonly Buffer[], gzipped = false, status = 200): void {
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
  // One writev for the whole answer (a gzip answer is a few hundred segments).
  ctx.res.cork();
  for (const part of parts) ctx.res.write(part);
  ctx.res.end();
  ctx.res.uncork();
}

/**
 * SPEC rules 1-3: the full snapshot in `new`; in `deleted`, what this key may hold that is gone.
 * Large answers go as one gzip member to clients that accept it (Go's HTTP client, which CrowdSec
 * bouncers use, always does). What the answer carries is recorded before its first byte, and
 * `deleted` is computed from the key's last REPEAT_POLLS answers, so each deletion is repeated on
 * that many answers: a cut answer, failed polls or a crash at any moment lose none.
 */
async function answerStream(ctx: Context, parts: BouncerParts, key: StoredApiKey): Promise<void> {
  const rawStartup = ctx.query.startup;
  const startup = (Array.isArray(rawStartup) ? rawStartup[rawStartup.length - 1] : rawStartup) === 'true';
  const expanded = key.expandRanges;
  const latest = parts.snapshots.get();
  const text = snapshotParts(latest, expanded);
  const gzip =
    text.reduce((sum, part) => sum + part.length, 0) > GZIP_ABOVE_BYTES &&
    ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  const snapshot = gzip ? await parts.compressor.servable(latest, expanded) : latest;
  const since = startup ? undefined : parts.cursors.deletedSince(key.id);
  const { tail, count } = parts.deletedTails.tail(since, snapshot, expanded);
  const body = gzip
    ? await parts.compressor.answer(snapshot, expanded, tail)
    : [NEW_OPEN, ...snapshotParts(snapshot, expanded), Buffer.from(tail)];
  // HEAD only checks the key: it carries nothing, so it records nothing.
  if (ctx.method === 'GET') {
    const ip = remoteIp(ctx);
    parts.cursors.record(key.id, snapshot.version, ip, snapshotCount(snapshot, expanded), count, startup);
    parts.hosts.polled(key.id, ip, ctx.get('user-agent'));
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
  parts.snapshots.get();
  const found = publishedCandidates(parts.snapshots, query)
    .filter((candidate) => matches(query, candidate))
    .map((candidate) => candidate.json());
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
  if (
    (declared !== undefined && declared > USAGE_METRICS_MAX_BYTES) ||
    JSON.stringify(body ?? null).length > USAGE_METRICS_MAX_BYTES
  ) {
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
export function authenticateBouncer(ctx: Context, parts: BouncerParts, credential?: PresentedCredential): StoredApiKey {
  const ip = remoteIp(ctx);
  const banned = isBannedAddress(parts.bans, ip);
  let key: StoredApiKey;
  try {
    key = authenticateApiKeyOnly(parts.services, ctx, BOUNCER_PREFIX, 'GET', credential ?? presentedCredential(ctx));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const reason = error.messages.join('; ');
    const refused = refusedKeyOf(error);
    parts.hosts.rejected(ip, refused?.keyId ?? null, reason);
    // A known key's refusal is shown on that key's bouncer: refused, never green.
    if (refused)
      parts.cursors.refused(refused.keyId, { at: parts.services.clock.now(), ip, code: refused.code, reason });
    if (banned)
      throw forbidden(
        'Your address is banned by the intrusion-ban rules of this server; present a valid API key or retry after the ban expires.',
      );
    throw error;
  }
  if (
    banned &&
    liftHttpBan(
      parts.services,
      parts.bans,
      parts.detector,
      ip,
      `valid API key #${key.id} presented on the bouncer export`,
    )
  ) {
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
      if (!verbs.includes(ctx.method))
        throw methodNotAllowed(`${ctx.method} is not allowed here; use ${verbs.join(' or ')}.`, verbs);
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
