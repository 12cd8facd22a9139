import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { badRequest, payloadTooLarge } from '../wire/errors.ts';
import { authenticate, authorize, enqueue, pipeline, respond, type JobSpec } from '../http/pipeline.ts';
import { sipDeclaration } from '../resources/sip/declaration.ts';
import type { Services } from '../services.ts';
import { LEGACY_MEMBERS } from '../http/family-errors.ts';
import { legacyErrors } from './legacy-envelope.ts';

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
  if ((ctx.request.type || '').toLowerCase() === 'application/x-www-form-urlencoded')
    return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('Malformed JSON in the request body.');
  }
}

/** The `peer` of a getSipPeer body; 400 with a clear message when it is missing or not an extension number. */
export function peerOf(body: unknown): string {
  const raw =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).peer : undefined;
  const peer =
    typeof raw === 'number' && Number.isInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!peer) throw badRequest('The request body must name the extension: {"peer": "<extension number>"}.');
  if (!PEER_PATTERN.test(peer))
    throw badRequest('"peer" must be an extension number (letters, digits, "_", ".", "+" or "-", at most 64).');
  return peer;
}

/**
 * The older session-era endpoints `/pbxcore/api/sip/*`: same auth as the SPEC (session cookie,
 * Bearer, localhost), run on the worker queue through the one pipeline, answered in the legacy
 * envelope (the worker renders it with `jsonapi`).
 */
export function registerLegacySipRoutes(router: Router, services: Services): void {
  const peers: PeerDetailRefresher = services.peers;
  const sip = services.registry.get('sip');
  if (!sip) throw new Error('Resource sip is not registered.');
  const authorizeSipRead = authorize(() => ({ declaration: sip.declaration, level: 'READ' }));
  /** A `sip` action on the queue; legacy jobs get an empty body. */
  const sipJob = (operation: string, id?: string): JobSpec => ({
    resource: 'sip',
    operation,
    verb: 'GET',
    id,
    processor: SIP_PROCESSOR,
    body: {},
    envelopeExtra: LEGACY_MEMBERS,
  });
  const queued = (...steps: Middleware[]) =>
    pipeline(legacyErrors, authenticate(services), authorizeSipRead, ...steps, respond(services));

  router.get(`${LEGACY_SIP_PREFIX}getPeersStatuses`, queued(enqueue(services, () => sipJob('getPeersStatuses'))));
  router.get(`${LEGACY_SIP_PREFIX}getRegistry`, queued(enqueue(services, () => sipJob('getRegistry'))));
  router.all(
    `${LEGACY_SIP_PREFIX}getSipPeer`,
    queued(
      enqueue(services, async (ctx) => {
        const peer = peerOf(await bodyOfAnyVerb(ctx, services.config.bodyLimitBytes));
        await peers.refreshEndpoint(peer);
        return sipJob('getStatus', peer);
      }),
    ),
  );
}
