import { CROWDSEC_LINK_FIELDS } from '../../upstream/link-settings-schema.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';

/** `crowdsec-link`: this PBX's link to an upstream CrowdSec Local API (issue 23), applied live by the web thread. */
export const crowdsecLinkDeclaration: ResourceDeclaration = {
  name: 'crowdsec-link',
  description:
    'Share bans with other sites through a CrowdSec Local API (LAPI): this PBX pushes its bans ' +
    'as a CrowdSec machine and pulls the LAPI decisions as a bouncer. Changes apply live. Its ' +
    'whitelist, trusted networks and loopback are never banned, whatever the LAPI says.',
  processor: 'CrowdsecLinkProcessor',
  kind: 'singleton',
  security: {
    permission: 'CrowdsecLink',
    channels: ['localhost', 'bearer_token'],
    levels: { update: 'ADMIN', patch: 'ADMIN' },
  },
  fields: CROWDSEC_LINK_FIELDS,
  operations: ['getRecord', 'update', 'patch'],
  customMethods: {
    getStatus: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'READ',
      description:
        'Link state: `{enabled, connected, state, queueLength, lastPushAt, lastPullAt, lastError, ' +
        'push, pull}`; `state` is `off`, `connecting`, `connected` or `error`, with the reason in ' +
        '`lastError`.',
    },
  },
};
