import { z } from 'zod';
import { field, oneLineText } from '../resource-kit/fields.ts';
import type { FieldDef } from '../resource-kit/types.ts';

/** Settings key of the `ami` singleton (also the resource's name, so its changes are recognised by it). */
export const AMI_SETTINGS_KEY = 'ami';

/** Where the server sends the stored secret when it logs in: changing one needs SENSITIVE or the secret re-entered. */
export const AMI_CREDENTIAL_DESTINATIONS = { host: ['secret'], port: ['secret'], username: ['secret'] } as const;

/** The `ami` settings with their bounds and defaults: peers owns them, the `ami` resource serves them. */
export const AMI_SETTINGS_FIELDS: Record<string, FieldDef> = {
  enabled: field.boolean({
    default: false,
    description: 'Connect to Asterisk; when false every peer is UNKNOWN and every provider OFF.',
  }),
  host: field.text(
    z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^\u0000-\u0020\u007f\s]*$/u, 'must not contain control characters, line breaks or spaces')
      .regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+|[A-Za-z0-9.-]+)$/, 'must be a host name or address'),
    // Kept exactly as sent: a trailing line break is refused, not trimmed away.
    { default: '127.0.0.1', sanitize: (v) => v, description: 'Asterisk host.' },
  ),
  port: field.integer(z.number().int().min(1).max(65535), { default: 5038, description: 'AMI TCP port.' }),
  username: field.text(oneLineText(100), { default: '', description: 'AMI user (manager.conf).' }),
  secret: field.text(oneLineText(255), {
    default: '',
    writeOnly: true,
    description:
      'AMI password; write-only. Changing it needs the SENSITIVE level, and so does changing ' +
      'host, port or username (the server logs in there with it) unless the same request ' +
      're-enters the stored secret.',
  }),
};
