import type { ResourceDeclaration } from './types.ts';

/**
 * The frame of a settings singleton: read with READ and written only with ADMIN, by the local console or a bearer
 * token. A declaration spreads it and adds its name, fields and methods.
 */
export function adminSettingsSingleton(
  permission: string,
): Pick<ResourceDeclaration, 'kind' | 'security' | 'operations'> {
  return {
    kind: 'singleton',
    security: { permission, channels: ['localhost', 'bearer_token'], levels: { update: 'ADMIN', patch: 'ADMIN' } },
    operations: ['getRecord', 'update', 'patch'],
  };
}
