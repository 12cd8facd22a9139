import type Router from '@koa/router';
import type { Context } from 'koa';
import { authenticateApiKeyOnly, refusedKeyOf } from '../auth/api-key-auth.ts';
import type { StoredApiKey } from '../auth/api-key-store.ts';
import { presentedCredential, type PresentedCredential } from '../auth/credentials.ts';
import { remoteIp } from '../auth/remote-address.ts';
import { renderFamilyError } from './family-errors.ts';
import { forbidden, HttpError, methodNotAllowed, notFound } from '../wire/errors.ts';
import { sendEnvelope } from './respond.ts';
import type { Services } from '../services.ts';
import type { BouncerExport, JsonAnswer } from '../firewall/export/index.ts';

export const BOUNCER_PREFIX = '/pbxcore/api/v3/firewall-bouncer';
const BOUNCER_PATH = /^\/pbxcore\/api\/v3\/firewall-bouncer(?:\/.*)?$/;

/** What the export routes need: the server's services (key checks) and the firewall's export facade. */
export interface BouncerParts {
  services: Services;
  bouncerExport: BouncerExport;
}

/**
 * Sends JSON made of pre-rendered parts without joining them into one buffer: the snapshot is
 * shared by every poll and written as-is. HEAD gets the same headers and no body.
 */
function sendJsonParts(ctx: Context, { parts, gzipped }: JsonAnswer, status = 200): void {
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
 * SPEC rules 1-3 (see BouncerExport.stream). The firewall records what the answer carries before
 * it returns, so before the first byte; HEAD only checks the key: it carries nothing, records nothing.
 */
async function answerStream(ctx: Context, bouncer: BouncerExport, key: StoredApiKey): Promise<void> {
  const rawStartup = ctx.query.startup;
  const startup = (Array.isArray(rawStartup) ? rawStartup[rawStartup.length - 1] : rawStartup) === 'true';
  const answer = await bouncer.stream({
    keyId: key.id,
    expandRanges: key.expandRanges,
    startup,
    acceptsGzip: ctx.acceptsEncodings('gzip', 'identity') === 'gzip',
    served: ctx.method === 'GET' ? { ip: remoteIp(ctx), userAgent: ctx.get('user-agent') } : undefined,
    view: { entryCap: key.entryCap, aggregate: key.aggregate, keyName: key.description },
  });
  sendJsonParts(ctx, answer);
}

/**
 * `POST /v1/usage-metrics`: the report current bouncers send every 15 minutes. Answered 201 with
 * no content, as the LAPI does.
 */
function acceptUsageMetrics(ctx: Context, bouncer: BouncerExport, key: StoredApiKey): void {
  bouncer.reportUsage({
    keyId: key.id,
    ip: remoteIp(ctx),
    userAgent: ctx.get('user-agent'),
    body: ctx.request.body,
    declaredBytes: ctx.request.length,
  });
  ctx.status = 201;
  ctx.respond = false;
  ctx.res.writeHead(201, { 'Content-Length': 0, 'Cache-Control': 'no-store' });
  ctx.res.end();
}

/** The bouncer's error shape: the envelope plus a top-level `message`, which CrowdSec clients print. */
function sendBouncerError(ctx: Context, error: HttpError): void {
  sendEnvelope(ctx, renderFamilyError('bouncer', error.status, error.messages), error.headers);
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
  const { bouncerExport: bouncer } = parts;
  const ip = remoteIp(ctx);
  const banned = bouncer.isBanned(ip);
  let key: StoredApiKey;
  try {
    key = authenticateApiKeyOnly(parts.services, ctx, BOUNCER_PREFIX, 'GET', credential ?? presentedCredential(ctx));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    bouncer.refused(ip, error.messages.join('; '), refusedKeyOf(error));
    if (banned)
      throw forbidden(
        'Your address is banned by the intrusion-ban rules of this server; present a valid API key or retry after the ban expires.',
      );
    throw error;
  }
  bouncer.admitted(ip, key.id, banned);
  return key;
}

/** Registers `/firewall-bouncer/v1/...`: served on the web thread from the shared snapshot, never through the queue. */
export function registerBouncerRoutes(router: Router, services: Services): void {
  const parts: BouncerParts = { services, ...services.firewall };
  router.all(BOUNCER_PATH, async (ctx) => {
    try {
      // Authentication comes first so an anonymous caller learns nothing about the paths.
      const key = authenticateBouncer(ctx, parts);
      const sub = ctx.path.slice(BOUNCER_PREFIX.length).replace(/\/+$/, '');
      const verbs = ENDPOINTS[sub];
      if (!verbs) throw notFound(`No bouncer endpoint at ${ctx.path.slice(0, 200)}.`);
      if (!verbs.includes(ctx.method))
        throw methodNotAllowed(`${ctx.method} is not allowed here; use ${verbs.join(' or ')}.`, verbs);
      const bouncer = parts.bouncerExport;
      if (sub === '/v1/decisions/stream') return await answerStream(ctx, bouncer, key);
      // `/v1/decisions`: what the LAPI filters select (CrowdSec live mode asks with `ip`), or `null`.
      if (sub === '/v1/decisions') return sendJsonParts(ctx, bouncer.decisions(ctx.query));
      if (sub === '/v1/usage-metrics') return acceptUsageMetrics(ctx, bouncer, key);
      return sendJsonParts(ctx, bouncer.whitelist());
    } catch (error) {
      if (error instanceof HttpError) return sendBouncerError(ctx, error);
      throw error;
    }
  });
}
