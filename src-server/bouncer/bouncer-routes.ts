import type Router from '@koa/router';
import type { Context } from 'koa';
import { authenticateApiKeyOnly } from '../auth/api-key-auth.ts';
import { remoteIp } from '../auth/remote-address.ts';
import { renderError } from '../http/envelope.ts';
import { badRequest, HttpError, methodNotAllowed, notFound } from '../http/errors.ts';
import { sendEnvelope } from '../http/respond.ts';
import type { Services } from '../services.ts';
import { normalizeAddress } from '../firewall/addresses.ts';
import type { FirewallState } from '../firewall/firewall-state.ts';
import { parseAddress } from '../net/cidr.ts';
import { compressedSnapshot, compressedTail, GZIP_ABOVE_BYTES } from './compressed-snapshot.ts';
import type { CursorStore } from './cursor-store.ts';
import type { DecisionLog } from './decision-log.ts';
import type { DecisionSnapshotCache } from './decision-snapshot.ts';

export const BOUNCER_PREFIX = '/pbxcore/api/v3/firewall-bouncer';
const BOUNCER_PATH = /^\/pbxcore\/api\/v3\/firewall-bouncer(?:\/.*)?$/;

const NEW_OPEN = Buffer.from('{"new":[');
const DELETED_OPEN = '],"deleted":[';
const ARRAY_OPEN = Buffer.from('[');
const ARRAY_CLOSE = Buffer.from(']');

export interface BouncerParts {
  services: Services;
  state: FirewallState;
  snapshots: DecisionSnapshotCache;
  log: DecisionLog;
  cursors: CursorStore;
}

/**
 * Sends JSON made of pre-rendered parts without joining them into one buffer: the snapshot is
 * shared by every poll and written as-is. HEAD gets the same headers and no body.
 */
function sendJsonParts(ctx: Context, parts: Buffer[], gzipped = false): void {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  ctx.status = 200;
  ctx.respond = false;
  ctx.res.writeHead(200, {
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
 * SPEC rules 1-3: the full snapshot in `new`; in `deleted`, what this key's cursor holds that is
 * gone. Large answers go gzip-compressed to clients that accept it (Go's HTTP client, which
 * CrowdSec bouncers use, always does), from the snapshot's shared compressed form.
 */
async function answerStream(ctx: Context, parts: BouncerParts, keyId: number): Promise<void> {
  const snapshot = parts.snapshots.get();
  const rawStartup = ctx.query.startup;
  const startup = (Array.isArray(rawStartup) ? rawStartup[rawStartup.length - 1] : rawStartup) === 'true';
  const cursor = startup ? undefined : parts.cursors.liveVersion(keyId);
  const deleted = cursor === undefined ? [] : parts.log.deletedSince(cursor);
  // HEAD only checks the key: it must not move the cursor, or its `deleted` would be lost.
  if (ctx.method === 'GET') parts.cursors.record(keyId, snapshot.version, remoteIp(ctx), snapshot.count, deleted.length);
  const tail = `${DELETED_OPEN}${deleted.join(',')}]}`;
  if (snapshot.json.length > GZIP_ABOVE_BYTES && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    const head = await compressedSnapshot(snapshot, NEW_OPEN);
    return sendJsonParts(ctx, [head, compressedTail(tail)], true);
  }
  sendJsonParts(ctx, [NEW_OPEN, snapshot.json, Buffer.from(tail)]);
}

/**
 * `GET /v1/decisions`: every active decision, or with `?ip=` (CrowdSec live mode) only those that
 * apply to that address, and `null` when none does, as the CrowdSec local API answers.
 */
function answerDecisions(ctx: Context, parts: BouncerParts): void {
  const rawIp = ctx.query.ip;
  if (rawIp === undefined) return sendJsonParts(ctx, [ARRAY_OPEN, parts.snapshots.get().json, ARRAY_CLOSE]);
  const text = Array.isArray(rawIp) ? rawIp[rawIp.length - 1]! : rawIp;
  const address = normalizeAddress(text) === undefined ? undefined : parseAddress(text.trim());
  if (!address) throw badRequest(`ip: "${text.slice(0, 100)}" is not a valid IPv4 or IPv6 address.`);
  const found = parts.snapshots.decisionsFor(address);
  sendJsonParts(ctx, [Buffer.from(found.length ? `[${found.join(',')}]` : 'null')]);
}

/** The bouncer's error shape: the envelope plus a top-level `message`, which CrowdSec clients print. */
function sendBouncerError(ctx: Context, error: HttpError): void {
  const message = error.messages.join('; ');
  sendEnvelope(ctx, renderError(error.status, error.messages, { message }), error.headers);
}

/** Registers `/firewall-bouncer/v1/...`: served on the web thread from the shared snapshot, never through the queue. */
export function registerBouncerRoutes(router: Router, parts: BouncerParts): void {
  router.all(BOUNCER_PATH, async (ctx) => {
    try {
      // API key only: no JWT, no session, no localhost bypass. Authentication comes first so an
      // anonymous caller learns nothing about the paths. allowed_paths are checked against the
      // export's prefix (SPEC: `/api/v3/firewall-bouncer` for read), which also keeps the v3
      // grammar parser (and its exceptions) off this hot path.
      const key = authenticateApiKeyOnly(parts.services, ctx, BOUNCER_PREFIX);
      const sub = ctx.path.slice(BOUNCER_PREFIX.length).replace(/\/+$/, '');
      const known = sub === '/v1/decisions/stream' || sub === '/v1/decisions' || sub === '/v1/whitelist';
      if (!known) throw notFound(`No bouncer endpoint at ${ctx.path.slice(0, 200)}.`);
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw methodNotAllowed(`${ctx.method} is not allowed here; use GET or HEAD.`, ['GET', 'HEAD']);
      if (sub === '/v1/decisions/stream') return await answerStream(ctx, parts, key.id);
      if (sub === '/v1/decisions') return answerDecisions(ctx, parts);
      return sendJsonParts(ctx, [Buffer.from(parts.state.whitelistJson)]);
    } catch (error) {
      if (error instanceof HttpError) return sendBouncerError(ctx, error);
      throw error;
    }
  });
}
