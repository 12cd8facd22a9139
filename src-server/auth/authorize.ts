import { forbidden } from '../http/errors.ts';
import type { Level, ResourceDeclaration } from '../resources/types.ts';
import type { Principal } from './principal.ts';

export interface AccessTarget {
  declaration: ResourceDeclaration;
  level: Level;
  /** Request path, for allowed_paths checks of API keys. */
  path: string;
  method: string;
}

/** Permission check after authentication; throws 403 when the principal may not do this. */
export function authorize(principal: Principal, target: AccessTarget): void {
  if (principal.channel === 'public') return;
  if (principal.channel === 'localhost') {
    if (!target.declaration.security.channels.includes('localhost')) {
      throw forbidden(`${target.declaration.name} is not available through the localhost bypass; use a Bearer token.`);
    }
    return;
  }
  throw forbidden();
}

/** Whether the principal may see sensitive fields. */
export function canReadSensitive(principal: Principal): boolean {
  return principal.channel === 'localhost';
}
