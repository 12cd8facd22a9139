import { z } from 'zod';
import { AMI_SETTINGS_FIELDS } from '../../peers/ami-settings-schema.ts';
import { adminSettingsSingleton } from '../../resource-kit/settings-singleton.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { NO_QUERY, READ_ON_COLLECTION } from '../../resource-kit/contract.ts';

/** Connection to the Asterisk manager interface (AMI) that feeds peer status and security events. */
export const amiDeclaration = {
  name: 'ami',
  description:
    'Asterisk manager interface (AMI) connection: live peer and provider state, SIP/IAX/AMI security events.',
  processor: 'AmiSettingsProcessor',
  ...adminSettingsSingleton('Ami'),
  fields: AMI_SETTINGS_FIELDS,
  customMethods: {
    getStatus: {
      ...READ_ON_COLLECTION,
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
} satisfies ResourceDeclaration;
