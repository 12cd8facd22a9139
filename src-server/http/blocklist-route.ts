import type Router from '@koa/router';
import { basicPasswordCredential } from '../auth/basic-credential.ts';
import { presentedCredential } from '../auth/credentials.ts';
import { remoteIp } from '../auth/remote-address.ts';
import { renderFamilyError } from './family-errors.ts';
import { HttpError, methodNotAllowed } from '../wire/errors.ts';
import { authenticateBouncer, BOUNCER_PREFIX, type BouncerParts } from './bouncer-routes.ts';
import type { Services } from '../services.ts';
import { sendEnvelope } from './respond.ts';

export const BLOCKLIST_PATH = `${BOUNCER_PREFIX}/blocklist`;
/** Routers put the key in the URL as the Basic password; the challenge tells their HTTP clients to send it. */
const CHALLENGE = 'Basic realm="PBX blocklist", charset="UTF-8"';

/** Whether an If-None-Match header names this ETag (weak comparison, RFC 9110 13.1.2). */
function matchesEtag(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/**
 * `GET /firewall-bouncer/blocklist?format=…`: the published decisions as a router feed in the
 * formats of CrowdSec's cs-blocklist-mirror. Served on the web thread from the shared snapshot,
 * with the bouncer export's key check (and its ban rules); the key may also come as the HTTP
 * Basic password. ETag/If-None-Match answer 304 while the content is unchanged.
 */
export function registerBlocklistRoutes(router: Router, services: Services): void {
  const parts: BouncerParts = { services, ...services.firewall };
  const bouncer = parts.bouncerExport;
  router.all(BLOCKLIST_PATH, async (ctx) => {
    try {
      const key = authenticateBouncer(ctx, parts, presentedCredential(ctx) ?? basicPasswordCredential(ctx));
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
        throw methodNotAllowed(`${ctx.method} is not allowed here; use GET or HEAD.`, ['GET', 'HEAD']);
      const served =
        ctx.method === 'GET' ? { keyId: key.id, ip: remoteIp(ctx), userAgent: ctx.get('user-agent') } : undefined;
      const view = { entryCap: key.entryCap, aggregate: key.aggregate, keyName: key.description };
      const rendered = bouncer.blocklist(ctx.query, served, view);
      ctx.set('ETag', rendered.etag);
      ctx.set('Cache-Control', 'no-cache');
      ctx.vary('Accept-Encoding');
      if (matchesEtag(ctx.get('if-none-match'), rendered.etag)) {
        ctx.status = 304;
        return;
      }
      ctx.type = 'text/plain; charset=utf-8';
      if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
        ctx.set('Content-Encoding', 'gzip');
        ctx.body = await bouncer.gzipped(rendered);
      } else ctx.body = rendered.body;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const headers = error.status === 401 ? { ...error.headers, 'WWW-Authenticate': CHALLENGE } : error.headers;
      sendEnvelope(ctx, renderFamilyError('bouncer', error.status, error.messages), headers);
    }
  });
}
