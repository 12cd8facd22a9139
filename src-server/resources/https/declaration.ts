import { z } from 'zod';
import { boundedInteger, rangeText, SETTING_BOUNDS } from '../../config/setting-bounds.ts';
import { field } from '../fields.ts';
import type { ResourceDeclaration } from '../types.ts';

/** Settings key of the `https` singleton. */
export const HTTPS_SETTING_KEY = 'https';
/** Written by the web thread when the listener starts: what system:getCertificate reports. */
export const HTTPS_RUNTIME_KEY = 'https-runtime';

/** `https`: the optional HTTPS listener, applied at the next start (PBX_HTTPS_PORT overrides the port). */
export const httpsDeclaration: ResourceDeclaration = {
  name: 'https',
  description: 'Optional HTTPS listener so remote bouncers never send keys in clear text. Applied at the next start.',
  processor: 'HttpsSettingsProcessor',
  kind: 'singleton',
  security: { permission: 'Https', channels: ['localhost', 'bearer_token'], levels: { update: 'ADMIN', patch: 'ADMIN' } },
  fields: {
    enabled: field.boolean({ default: false, description: 'Start the HTTPS listener.' }),
    port: field.integer(boundedInteger(SETTING_BOUNDS.https.port), { default: 8443, description: `HTTPS port (${rangeText(SETTING_BOUNDS.https.port)}).` }),
    certificatePath: field.text(z.string().max(4096), {
      default: '',
      description: 'PEM certificate (chain) file; empty uses the self-signed certificate generated in the data directory.',
    }),
    privateKeyPath: field.text(z.string().max(4096), { default: '', description: 'PEM private key file matching certificatePath.' }),
  },
  operations: ['getRecord', 'update', 'patch'],
};
