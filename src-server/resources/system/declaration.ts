import { z } from 'zod';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { NO_QUERY, READ_ON_COLLECTION } from '../../resource-kit/contract.ts';
import { HEALTH_AREAS, HEALTH_CHECK_KINDS } from '../../health/finding.ts';

export const systemDeclaration = {
  name: 'system',
  description: 'Service health and information.',
  processor: 'SystemManagementProcessor',
  security: { permission: 'System', channels: ['localhost', 'bearer_token'] },
  fields: {},
  operations: [],
  customMethods: {
    ping: {
      ...READ_ON_COLLECTION,
      public: true,
      description: 'Liveness check; answers `{result: true}`.',
      input: NO_QUERY,
      output: z.object({ pong: z.literal(true) }),
    },
    getInfo: {
      ...READ_ON_COLLECTION,
      description: 'Version, uptime, host addresses, ports and the bouncer api_url for each address.',
      input: NO_QUERY,
      output: z.object({
        version: z.string(),
        uptimeSeconds: z.number().int().min(0),
        addresses: z.array(z.string()),
        httpPort: z.number().int(),
        httpsPort: z.number().int().nullable(),
        bouncerApiUrls: z.array(z.string()),
      }),
    },
    getHealth: {
      ...READ_ON_COLLECTION,
      description:
        'The health checks failing now (docs/health.md), most severe first: each with `kind`, ' +
        '`severity`, `title` in words naming the key or account, `since` (when it started failing), ' +
        '`action` (where to act, in words) and `area` (the console page). Callers without ' +
        'SENSITIVE see `API key #<id>` instead of key names.',
      input: NO_QUERY,
      output: z.object({
        checks: z.array(
          z.object({
            id: z.string(),
            kind: z.enum(HEALTH_CHECK_KINDS),
            severity: z.enum(['info', 'warning', 'critical']),
            title: z.string(),
            detail: z.string().nullable(),
            action: z.string().nullable(),
            area: z.enum(HEALTH_AREAS).nullable(),
            since: z.string(),
          }),
        ),
        checkedAt: z.string(),
      }),
    },
    getCertificate: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'ADMIN',
      description:
        'The HTTPS listener as it runs now: `{enabled, port, fingerprint256, subject, validTo, ' +
        'source, pem, pending, error}` (nulls when HTTPS is off). `pending` is true from a save of ' +
        '`https` (or https:renewCertificate) until the change is live; `error` says why the last ' +
        'change was not applied.',
      input: NO_QUERY,
      output: z.object({
        pending: z.boolean(),
        pem: z.string().nullable(),
        enabled: z.boolean(),
        port: z.number().int().nullable(),
        fingerprint256: z.string().nullable(),
        subject: z.string().nullable(),
        validTo: z.string().nullable(),
        source: z.enum(['self-signed', 'configured']).nullable(),
        error: z.string().nullable(),
      }),
    },
  },
} satisfies ResourceDeclaration;
