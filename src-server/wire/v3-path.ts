import { badRequest, notFound } from './errors.ts';

/** A parsed v3 path: `{resource}[/{id}][:{method}]`. Module resources keep their `module-x/` prefix in `resource`. */
export interface V3Path {
  resource: string;
  id?: string;
  method?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const METHOD = /^[A-Za-z][A-Za-z0-9_]*$/;
const MAX_ID_LENGTH = 256;

/**
 * Parses the part after `/pbxcore/api/v3/` following the SPEC's grammar. `{id}` never holds `/` or `:`.
 * Throws 400 for malformed input: empty segments, a bad custom method (`x:`, `:y`, `a:b:c`), bad escapes.
 * A well-formed path with more segments than the grammar has (`modules/x/y`) names no endpoint: 404.
 */
export function parseV3Path(rawRest: string): V3Path {
  const rest = rawRest.endsWith('/') ? rawRest.slice(0, -1) : rawRest;
  if (rest === '') throw badRequest('Missing resource name in the path.');
  const segments = rest.split('/');
  if (segments.some((s) => s === '')) throw badRequest('Empty path segment: a resource name or id is missing.');

  // Module resources: module-{slug}/{resource}[/{id}]
  const moduleScoped = segments[0]!.startsWith('module-');
  const resourceSegments = moduleScoped ? 2 : 1;
  if (segments.length < resourceSegments) throw badRequest('Missing resource name after the module prefix.');

  const last = segments.length - 1;
  let method: string | undefined;
  const lastSegment = segments[last]!;
  const colon = lastSegment.indexOf(':');
  if (colon !== -1) {
    const methodPart = lastSegment.slice(colon + 1);
    if (methodPart.includes(':')) throw badRequest('Malformed custom method: only one ":" is allowed.');
    if (methodPart === '') throw badRequest('Missing custom method name after ":".');
    if (colon === 0) throw badRequest('Missing resource or id before ":".');
    if (!METHOD.test(methodPart)) throw badRequest(`Malformed custom method name "${methodPart}".`);
    method = methodPart;
    segments[last] = lastSegment.slice(0, colon);
  }
  for (const segment of segments.slice(0, last)) {
    if (decode(segment).includes(':'))
      throw badRequest('Malformed path: ":" may only introduce the final custom method.');
  }
  // Well-formed, but deeper than `{resource}/{id}`: no endpoint has this path (ids never contain "/").
  if (segments.length > resourceSegments + 1)
    throw notFound(`No endpoint at /pbxcore/api/v3/${rest}: ids never contain "/".`);

  const names = segments.slice(0, resourceSegments).map(decode);
  for (const name of names) {
    if (name.includes(':')) throw badRequest('Malformed path: ":" may only introduce the final custom method.');
    if (!NAME.test(name)) throw badRequest(`Malformed resource name "${name}".`);
  }
  const resource = names.join('/');
  if (segments.length === resourceSegments) return method ? { resource, method } : { resource };

  const id = decode(segments[last]!);
  if (id.includes(':') || id.includes('/')) throw badRequest('Record ids never contain ":" or "/".');
  if (id.length > MAX_ID_LENGTH) throw badRequest(`Record id is longer than ${MAX_ID_LENGTH} characters.`);
  if (/[\u0000-\u001f\u007f]/.test(id)) throw badRequest('Record id contains control characters.');
  return method ? { resource, id, method } : { resource, id };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('Malformed percent-encoding in the path.');
  }
}
