import type Router from '@koa/router';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { Principal } from '../auth/principal.ts';
import { badRequest, payloadTooLarge } from '../wire/errors.ts';
import { sendOutcome } from '../http/v3-handler.ts';
import { sipDeclaration } from '../resources/sip/declaration.ts';
import type { Services } from '../services.ts';
import { LEGACY_EXTRA, withLegacyErrors } from './legacy-envelope.ts';
import { authenticateFor, runQueued } from './queued-action.ts';

export const LEGACY_SIP_PREFIX = '/pbxcore/api/sip/';

/** What the sip routes need from the AMI monitor: an on-demand refresh of one peer's detail. */
export interface PeerDetailRefresher {
  refreshEndpoint(endpoint: string): Promise<void>;
}

const SIP_PROCESSOR = sipDeclaration.processor ?? sipDeclaration.name;
const PEER_PATTERN = /^[A-Za-z0-9_.+-]{1,64}$/;

/**
 * The body of a request of any verb: the shared parser handles POST/PUT/PATCH/DELETE; a GET
 * with a body (older scripts send one) is read here, JSON or form.
 */
async function bodyOfAnyVerb(ctx: Context, limitBytes: number): Promise<unknown> {
  if (ctx.request.body !== undefined || !['GET', 'HEAD', 'OPTIONS'].includes(ctx.method)) return ctx.request.body;
  const length = ctx.request.length;
  if (!length && !ctx.get('transfer-encoding')) return undefined;
  if (length !== undefined && length > limitBytes) throw payloadTooLarge(limitBytes);
  let text: string;
  try {
    text = (await getRawBody(ctx.req, { limit: limitBytes, length, encoding: 'utf8' })).toString();
  } catch {
    throw badRequest('The request body could not be read.');
  }
  if (!text.trim()) return undefined;
  if ((ctx.request.type || '').toLowerCase() === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('Malformed JSON in the request body.');
  }
}

/** The `peer` of a getSipPeer body; 400 with a clear message when it is missing or not an extension number. */
export function peerOf(body: unknown): string {
  const raw = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).peer : undefined;
  const peer = typeof raw === 'number' && Number.isInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!peer) throw badRequest('The request body must name the extension: {"peer": "<extension number>"}.');
  if (!PEER_PATTERN.test(peer)) throw badRequest('"peer" must be an extension number (letters, digits, "_", ".", "+" or "-", at most 64).');
  return peer;
}

/**
 * The older session-era endpoints `/pbxcore/api/sip/*`: same auth as the SPEC (session cookie,
 * Bearer, localhost), run on the worker queue, answered in the legacy envelope.
 */
export function legacySipRoutes(router: Router, services: Services, peers: PeerDetailRefresher): void {
  /** Runs a `sip` action on the queue; the worker renders the legacy envelope (with `jsonapi`). */
  const runSip = async (ctx: Context, principal: Principal, operation: string, id?: string) => {
    const outcome = await runQueued(ctx, services, principal, { resource: 'sip', operation, verb: 'GET', id, level: 'READ', envelopeExtra: LEGACY_EXTRA });
    await sendOutcome(ctx, services, outcome, operation, SIP_PROCESSOR, LEGACY_EXTRA);
  };

  router.get(`${LEGACY_SIP_PREFIX}getPeersStatuses`, (ctx) =>
    withLegacyErrors(ctx, async () => runSip(ctx, await authenticateFor(ctx, services, { resource: 'sip', level: 'READ' }), 'getPeersStatuses')),
  );

  router.get(`${LEGACY_SIP_PREFIX}getRegistry`, (ctx) =>
    withLegacyErrors(ctx, async () => runSip(ctx, await authenticateFor(ctx, services, { resource: 'sip', level: 'READ' }), 'getRegistry')),
  );

  router.all(`${LEGACY_SIP_PREFIX}getSipPeer`, (ctx) =>
    withLegacyErrors(ctx, async () => {
      const principal = await authenticateFor(ctx, services, { resource: 'sip', level: 'READ' });
      const peer = peerOf(await bodyOfAnyVerb(ctx, services.config.bodyLimitBytes));
      await peers.refreshEndpoint(peer);
      await runSip(ctx, principal, 'getStatus', peer);
    }),
  );
}
