import type { ResourceDeclaration } from '../../resource-kit/types.ts';

export const systemDeclaration: ResourceDeclaration = {
  name: 'system',
  description: 'Service health and information.',
  processor: 'SystemManagementProcessor',
  security: { permission: 'System', channels: ['localhost', 'bearer_token'] },
  fields: {},
  operations: [],
  customMethods: {
    ping: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'READ',
      public: true,
      description: 'Liveness check; answers `{result: true}`.',
    },
    getInfo: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'READ',
      description: 'Version, uptime, host addresses, ports and the bouncer api_url for each address.',
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
    },
  },
};
