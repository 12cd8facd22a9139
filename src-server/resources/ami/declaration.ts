import { z } from 'zod';
import { field } from '../../resource-kit/fields.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';

/** Settings key of the `ami` singleton. */
export const AMI_SETTINGS_KEY = 'ami';

/** Connection to the Asterisk manager interface (AMI) that feeds peer status and security events. */
export const amiDeclaration: ResourceDeclaration = {
  name: 'ami',
  description:
    'Asterisk manager interface (AMI) connection: live peer and provider state, SIP/IAX/AMI security events.',
  processor: 'AmiSettingsProcessor',
  kind: 'singleton',
  security: { permission: 'Ami', channels: ['localhost', 'bearer_token'], levels: { update: 'ADMIN', patch: 'ADMIN' } },
  fields: {
    enabled: field.boolean({
      default: false,
      description: 'Connect to Asterisk; when false every peer is UNKNOWN and every provider OFF.',
    }),
    host: field.text(
      z
        .string()
        .min(1)
        .max(255)
        .regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+|[A-Za-z0-9.-]+)$/, 'must be a host name or address'),
      { default: '127.0.0.1', description: 'Asterisk host.' },
    ),
    port: field.integer(z.number().int().min(1).max(65535), { default: 5038, description: 'AMI TCP port.' }),
    username: field.text(
      z
        .string()
        .max(100)
        .regex(/^[^\r\n]*$/, 'must be one line'),
      { default: '', description: 'AMI user (manager.conf).' },
    ),
    secret: field.text(
      z
        .string()
        .max(255)
        .regex(/^[^\r\n]*$/, 'must be one line'),
      {
        default: '',
        writeOnly: true,
        description:
          'AMI password; write-only. Changing it needs the SENSITIVE level, and so does changing ' +
          'host, port or username (the server logs in there with it) unless the same request ' +
          're-enters the stored secret.',
      },
    ),
  },
  operations: ['getRecord', 'update', 'patch'],
  customMethods: {
    getStatus: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'READ',
      description:
        'Link state: `{enabled, connected, lastError, stateAgeSeconds}`; the age is null when no state was ever read.',
    },
  },
};
