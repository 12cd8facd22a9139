import { forbidden } from '../wire/errors.ts';
import type { Channel, Level } from '../wire/types.ts';
import { grantAt, grantAtNormalised, permissionNeeded, type PathPermission } from './allowed-paths.ts';
import type { Principal, Role } from './principal.ts';

export interface AccessTarget {
  /** The resource's declared name and security (a ResourceDeclaration satisfies it). */
  declaration: { name: string; security: { permission: string; channels: readonly Channel[] } };
  level: Level;
  /** Request path, for allowed_paths checks of API keys. */
  path: string;
  method: string;
  /** The path in allowed_paths form when the route already parsed it (v3: `/api/v3/<resource>`), so it is not parsed again. */
  grantPath?: string;
}

/** ADMIN includes WRITE includes READ; SENSITIVE includes READ. A viewer holds READ only. */
export function roleAllows(role: Role, level: Level): boolean {
  return role === 'admin' || level === 'READ';
}

/** Permission check after authentication; throws 403 when the principal may not do this. */
export function authorize(principal: Principal, target: AccessTarget): void {
  const { declaration, level } = target;
  const channels = declaration.security.channels;
  const action = `${declaration.security.permission}:${level}`;
  switch (principal.channel) {
    case 'public':
      return;
    case 'localhost':
      if (!channels.includes('localhost')) {
        throw forbidden(`${declaration.name} is not available through the localhost bypass; use a Bearer token.`);
      }
      return;
    case 'session':
    case 'bearer_token':
      if (!channels.includes('bearer_token'))
        throw forbidden(`${declaration.name} is not available to token or session callers.`);
      if (principal.channel === 'session' || principal.kind === 'jwt') {
        if (!roleAllows(principal.role, level))
          throw forbidden(`The ${principal.role} role may not perform ${action}.`);
        return;
      }
      if (principal.fullPermissions) return;
      authorizePathGrant(principal.allowedPaths, target, action);
      return;
  }
}

/**
 * Each level has its own grant, whatever the verb: READ needs `read` for GET/HEAD and `write`
 * otherwise; WRITE and ADMIN need `write` on the path (so an ADMIN-level GET such as the audit log
 * is refused to a `read` grant); SENSITIVE needs full_permissions.
 */
function authorizePathGrant(allowedPaths: Record<string, PathPermission>, target: AccessTarget, action: string): void {
  const granted =
    target.grantPath === undefined
      ? grantAt(allowedPaths, target.path)
      : grantAtNormalised(allowedPaths, target.grantPath);
  const where = `${target.method} ${target.path.split('?')[0]}`;
  if (!granted) throw forbidden(`This API key's allowed_paths do not permit ${where}.`);
  if (target.level === 'SENSITIVE') throw forbidden(`${action} needs an API key with full_permissions.`);
  const needed: PathPermission = target.level === 'READ' ? permissionNeeded(target.method) : 'write';
  if (needed === 'write' && granted !== 'write') {
    throw forbidden(
      target.level === 'READ'
        ? `This API key's allowed_paths do not permit ${where}.`
        : `${action} needs a "write" grant on this path; this API key's allowed_paths give "read" for ${where}.`,
    );
  }
}

/** Whether the principal may see sensitive fields: localhost, admins, and keys with full_permissions. */
export function canReadSensitive(principal: Principal): boolean {
  switch (principal.channel) {
    case 'public':
      return false;
    case 'localhost':
      return true;
    case 'session':
      return principal.role === 'admin';
    case 'bearer_token':
      return principal.kind === 'jwt' ? principal.role === 'admin' : principal.fullPermissions;
  }
}
