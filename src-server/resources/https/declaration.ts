import { z } from 'zod';
import { boundedInteger, rangeText, SETTING_BOUNDS } from '../../config/setting-bounds.ts';
import { field } from '../../resource-kit/fields.ts';
import { adminSettingsSingleton } from '../../resource-kit/settings-singleton.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { NO_BODY } from '../../resource-kit/contract.ts';

/** Settings key of the `https` singleton. */
export const HTTPS_SETTING_KEY = 'https';
/** Written by the web thread each time it applies the settings: what system:getCertificate reports. */
export const HTTPS_RUNTIME_KEY = 'https-runtime';
/** How many certificate renewals were requested (https:renewCertificate). */
export const HTTPS_REKEY_KEY = 'https-renewals';

/** `https`: the optional HTTPS listener, applied live by the web thread (PBX_HTTPS_PORT overrides the port). */
export const httpsDeclaration = {
  name: 'https',
  description:
    'Optional HTTPS listener so remote bouncers never send keys in clear text. Changes apply ' +
    'live, without a restart: system:getCertificate reports `pending` until they have.',
  processor: 'HttpsSettingsProcessor',
  ...adminSettingsSingleton('Https'),
  fields: {
    enabled: field.boolean({ default: false, description: 'Start the HTTPS listener.' }),
    port: field.integer(boundedInteger(SETTING_BOUNDS.https.port), {
      default: 8443,
      description: `HTTPS port (${rangeText(SETTING_BOUNDS.https.port)}).`,
    }),
    certificatePath: field.text(z.string().max(4096), {
      default: '',
      description:
        'PEM certificate (chain) file; empty uses the self-signed certificate generated in the data directory.',
    }),
    privateKeyPath: field.text(z.string().max(4096), {
      default: '',
      description: 'PEM private key file matching certificatePath.',
    }),
  },
  customMethods: {
    renewCertificate: {
      verbs: ['POST'],
      scope: 'collection',
      level: 'ADMIN',
      description:
        'Re-keys the running listener without a restart: a new self-signed certificate and key are ' +
        'generated, or the configured certificate files are read again (after a renewal on disk). ' +
        'Bouncers that pinned the old certificate need the new one. Answers `{renewals}`; 409 when ' +
        'HTTPS is off.',
      input: NO_BODY,
      output: z.object({ renewals: z.number().int().min(1) }),
    },
  },
} satisfies ResourceDeclaration;
