import { parseV3Path } from '../wire/v3-path.ts';

import type { PathPermission } from '../../src-shared/access.ts';

export type { PathPermission } from '../../src-shared/access.ts';
export type AllowedPaths = Record<string, PathPermission>;

const V3_ROOT = '/api/v3/';

/**
 * ARCHITECTURE's normalised path for allowed_paths: `/pbxcore` stripped, no query string, no
 * trailing `/`, no `:method`, and no trailing record id on v3 grammar paths.
 * `/pbxcore/api/v3/extensions/201:getStatus?x=1` becomes `/api/v3/extensions`.
 */
export function normalisePath(raw: string): string {
  let path = raw.split('?')[0]!.split('#')[0]!;
  try {
    path = decodeURI(path);
  } catch {
    // Keep the raw form: a malformed escape can only fail to match.
  }
  path = path.replace(/\/{2,}/g, '/');
  if (path.startsWith('/pbxcore/')) path = path.slice('/pbxcore'.length);
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (!path.startsWith('/')) path = `/${path}`;
  if (path.startsWith(V3_ROOT)) {
    try {
      const parsed = parseV3Path(path.slice(V3_ROOT.length));
      return `${V3_ROOT}${parsed.resource}`;
    } catch {
      // Not the generic grammar (the bouncer export has its own sub-paths): strip a final `:method` only.
    }
  }
  const lastSlash = path.lastIndexOf('/');
  const colon = path.indexOf(':', lastSlash);
  return colon > lastSlash ? path.slice(0, colon) : path;
}

/** Read for GET and HEAD, write for every other verb (write includes read). */
export function permissionNeeded(method: string): PathPermission {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/**
 * The permission `allowedPaths` grant on `path`: the most specific prefix that matches on a
 * segment boundary decides (`/` matches everything); undefined when none matches.
 */
export function grantAt(allowedPaths: AllowedPaths, path: string): PathPermission | undefined {
  return grantAtNormalised(allowedPaths, normalisePath(path));
}

/** `grantAt` for a path already in normalised form. */
export function grantAtNormalised(allowedPaths: AllowedPaths, target: string): PathPermission | undefined {
  let best: { length: number; permission: PathPermission } | undefined;
  for (const [rawPrefix, permission] of Object.entries(allowedPaths)) {
    const prefix = normalisePath(rawPrefix);
    const matches = prefix === '/' || target === prefix || target.startsWith(`${prefix}/`);
    if (matches && (!best || prefix.length > best.length)) best = { length: prefix.length, permission };
  }
  return best?.permission;
}

/** Whether a key's allowed_paths let it call `path` with `method`; an empty map denies everything. */
export function pathAllowed(allowedPaths: AllowedPaths, path: string, method: string): boolean {
  return pathGrantAllows(allowedPaths, normalisePath(path), method);
}

/** `pathAllowed` for a path already in normalised form (`/api/v3/<resource>`). */
export function pathGrantAllows(allowedPaths: AllowedPaths, normalisedPath: string, method: string): boolean {
  const granted = grantAtNormalised(allowedPaths, normalisedPath);
  if (!granted) return false;
  return granted === 'write' || permissionNeeded(method) === 'read';
}
