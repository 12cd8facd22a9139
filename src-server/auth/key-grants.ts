import { grantAt, normalisePath, type AllowedPaths, type PathPermission } from './allowed-paths.ts';

/** What a caller may hand on to an API key it creates or edits. */
export interface CallerGrants {
  /** JWT admins, the localhost bypass and full-permission keys. */
  fullPermissions: boolean;
  /** The caller key's allowed_paths (ignored when fullPermissions). */
  allowedPaths: AllowedPaths;
  /** The caller key's source binding; 'none' for callers that are not API keys. */
  networkFilterId: string;
}

/** The grants of an API key record as it would be stored. */
export interface KeyGrants {
  fullPermissions: boolean;
  allowedPaths: AllowedPaths;
  networkFilterId: string;
}

const RANK: Record<PathPermission | 'none', number> = { none: 0, read: 1, write: 2 };

/**
 * What `key` would hold beyond `caller`, one message per excess; empty when it stays within.
 * Effective permissions follow the most specific prefix, so they can only change at a prefix of
 * either map: comparing both at every such prefix is exact. A bound caller key (network filter or
 * localhost) can only hand on the same binding, or it could mint a key usable from anywhere.
 */
export function grantsExceeding(caller: CallerGrants, key: KeyGrants): string[] {
  const excess: string[] = [];
  if (caller.networkFilterId !== 'none' && key.networkFilterId !== caller.networkFilterId) {
    excess.push(
      `networkfilterid "${key.networkFilterId}" exceeds your grants: your key is bound to ` +
        `"${caller.networkFilterId}", and keys you create or change must keep that binding.`,
    );
  }
  if (caller.fullPermissions) return excess;
  if (key.fullPermissions)
    return [...excess, 'full_permissions exceeds your grants: only callers with full permissions may give it.'];
  const own = new Set(Object.keys(key.allowedPaths).map(normalisePath));
  const points = new Set([...own, ...Object.keys(caller.allowedPaths).map(normalisePath)]);
  for (const point of [...points].sort()) {
    const wanted = grantAt(key.allowedPaths, point) ?? 'none';
    const held = grantAt(caller.allowedPaths, point) ?? 'none';
    if (RANK[wanted] <= RANK[held]) continue;
    excess.push(
      own.has(point)
        ? `allowed_paths "${point}": "${wanted}" exceeds your grants (yours: ${held}).`
        : `allowed_paths would give "${wanted}" on ${point}, which exceeds your grants there (yours: ${held}).`,
    );
  }
  return excess;
}
