import { renderError, type RenderedEnvelope } from '../wire/envelope.ts';

/**
 * Route families whose answers carry members beyond the SPEC's envelope: the bouncer export
 * (`/pbxcore/api/v3/firewall-bouncer/...`) and the older endpoints (`/pbxcore/api/...` outside v3).
 */
export type RouteFamily = 'v3' | 'bouncer' | 'legacy';

/** SPEC: the older endpoints carry `jsonapi: {version}` next to the envelope's members, on every answer. */
export const LEGACY_MEMBERS = { jsonapi: { version: '1.0' } };

/** The family of a path, for errors raised before (or outside) a route that knows its own. */
export function routeFamilyOf(path: string): RouteFamily {
  if (path.startsWith('/pbxcore/api/v3/firewall-bouncer/')) return 'bouncer';
  if (path.startsWith('/pbxcore/api/') && !path.startsWith('/pbxcore/api/v3/')) return 'legacy';
  return 'v3';
}

/**
 * Members a route family adds to every error: the bouncer export's top-level `message` (CrowdSec
 * clients print it) and the older endpoints' `jsonapi`.
 */
function familyErrorMembers(family: RouteFamily, messages: string[]): Record<string, unknown> {
  if (family === 'bouncer') return { message: messages.join('; ') };
  if (family === 'legacy') return LEGACY_MEMBERS;
  return {};
}

/** The one renderer of an error answer: the SPEC's envelope plus its route family's members. */
export function renderFamilyError(family: RouteFamily, status: number, messages: string[]): RenderedEnvelope {
  return renderError(status, messages, familyErrorMembers(family, messages));
}
