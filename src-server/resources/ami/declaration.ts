import { z } from 'zod';
import { AMI_SETTINGS_FIELDS } from '../../peers/ami-settings-schema.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { NO_QUERY } from '../../resource-kit/contract.ts';

/** Connection to the Asterisk manager interface (AMI) that feeds peer status and security events. */
export const amiDeclaration: ResourceDeclaration = {
  name: 'ami',
  description:
    'Asterisk manager interface (AMI) connection: live peer and provider state, SIP/IAX/AMI security events.',
  processor: 'AmiSettingsProcessor',
  kind: 'singleton',
  security: { permission: 'Ami', channels: ['localhost', 'bearer_token'], levels: { update: 'ADMIN', patch: 'ADMIN' } },
  fields: AMI_SETTINGS_FIELDS,
  operations: ['getRecord', 'update', 'patch'],
  customMethods: {
    getStatus: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'READ',
      description:
        'Link state: `{enabled, connected, lastError, stateAgeSeconds}`; the age is null when no state was ever read.',
      input: NO_QUERY,
      output: z.object({
        enabled: z.boolean(),
        connected: z.boolean(),
        lastError: z.string().nullable(),
        stateAgeSeconds: z.number().nullable(),
      }),
    },
  },
};
