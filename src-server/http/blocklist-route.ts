import type Router from '@koa/router';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { basicPasswordCredential } from '../auth/basic-credential.ts';
import { presentedCredential } from '../auth/credentials.ts';
import { remoteIp } from '../auth/remote-address.ts';
import {
  blocklistEntries,
  parseBlocklistQuery,
  protectedCidrs,
  type BlocklistEntry,
  type BlocklistOptions,
} from '../firewall/blocklist.ts';
import { renderBlocklist } from '../firewall/blocklist-formats.ts';
import { renderFamilyError } from './family-errors.ts';
import { badRequest, HttpError, methodNotAllowed } from '../wire/errors.ts';
import { authenticateBouncer, BOUNCER_PREFIX, type BouncerParts } from './bouncer-routes.ts';
import type { Services } from '../services.ts';
import { sendEnvelope } from './respond.ts';

export const BLOCKLIST_PATH = `${BOUNCER_PREFIX}/blocklist`;
/** Routers put the key in the URL as the Basic password; the challenge tells their HTTP clients to send it. */
const CHALLENGE = 'Basic realm="PBX blocklist", charset="UTF-8"';
const DAY_MS = 86_400_000;
const gzipAsync = promisify(gzip);

/** A rendered feed, reused while nothing it depends on changed. */
interface RenderedFeed {
  stamp: string;
  body: Buffer;
  etag: string;
  gzipped?: Promise<Buffer>;
}

const optionsKey = (o: BlocklistOptions) =>
  `${o.format}|${o.ipv4only ? 4 : ''}${o.ipv6only ? 6 : ''}|${o.origin?.toLowerCase() ?? ''}|${o.listname}`;
const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 27);

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
  const cache = new Map<string, RenderedFeed>();

  const lists = new Map<string, { stamp: string; entries: BlocklistEntry[] }>();

  /** The feed's entries for a family and origin, computed once per change and shared by every format. */
  function entriesFor(options: BlocklistOptions, stamp: string, now: number): BlocklistEntry[] {
    const key = `${options.ipv4only ? 4 : ''}${options.ipv6only ? 6 : ''}|${options.origin?.toLowerCase() ?? ''}`;
    const known = lists.get(key);
    if (known?.stamp === stamp) return known.entries;
    const whitelist = protectedCidrs(parts.state.filters, parts.state.settings, now);
    // The members the snapshot was just built from: exactly what the stream publishes now.
    const entries = blocklistEntries(parts.snapshots.published.plain.values(), whitelist, options, now);
    if (lists.size > 16) lists.clear();
    lists.set(key, { stamp, entries });
    return entries;
  }

  /**
   * The feed for these options now. A text format depends only on which decisions are published,
   * so it is rendered once per change and its ETag is its hash. A MikroTik script carries each
   * entry's time left, so it is rendered for every request, and its (weak) ETag names the state it
   * was made from: a router holding it has timeouts still counting down correctly. The day is part
   * of it so a filter entry's long timeout is renewed at least daily.
   */
  function feed(options: BlocklistOptions): RenderedFeed {
    const snapshot = parts.snapshots.get();
    const now = parts.services.clock.now();
    const stamp = `${snapshot.version}:${parts.state.revision}:${parts.bans.revision}`;
    const key = optionsKey(options);
    const known = cache.get(key);
    if (options.format !== 'mikrotik' && known?.stamp === stamp) return known;
    const text = renderBlocklist(entriesFor(options, stamp, now), options, now);
    const etag =
      options.format === 'mikrotik'
        ? `W/"${hashOf(`${key}|${stamp}|${Math.floor(now / DAY_MS)}`)}"`
        : `"${hashOf(text)}"`;
    const rendered: RenderedFeed = { stamp, body: Buffer.from(text), etag };
    if (options.format !== 'mikrotik') {
      if (cache.size > 64) cache.clear();
      cache.set(key, rendered);
    }
    return rendered;
  }

  router.all(BLOCKLIST_PATH, async (ctx) => {
    try {
      const key = authenticateBouncer(ctx, parts, presentedCredential(ctx) ?? basicPasswordCredential(ctx));
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
        throw methodNotAllowed(`${ctx.method} is not allowed here; use GET or HEAD.`, ['GET', 'HEAD']);
      const parsed = parseBlocklistQuery(ctx.query);
      if (!parsed.ok) throw badRequest(parsed.message);
      const rendered = feed(parsed.options);
      if (ctx.method === 'GET') parts.hosts.polled(key.id, remoteIp(ctx), ctx.get('user-agent'));
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
        // Compressed off the event loop, once per rendered text feed.
        ctx.body = await (rendered.gzipped ??= gzipAsync(rendered.body));
      } else ctx.body = rendered.body;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const headers = error.status === 401 ? { ...error.headers, 'WWW-Authenticate': CHALLENGE } : error.headers;
      sendEnvelope(ctx, renderFamilyError('bouncer', error.status, error.messages), headers);
    }
  });
}
