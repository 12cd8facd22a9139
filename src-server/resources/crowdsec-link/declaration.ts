import { z } from 'zod';
import { CROWDSEC_LINK_FIELDS } from '../../upstream/link-settings-schema.ts';
import { adminSettingsSingleton } from '../../resource-kit/settings-singleton.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { isoTime, NO_QUERY, READ_ON_COLLECTION } from '../../resource-kit/contract.ts';

/** One direction (push or pull) of the link as the web thread last reported it; times in epoch ms. */
const direction = z.object({
  enabled: z.boolean(),
  state: z.enum(['off', 'waiting', 'ok', 'error']),
  lastOkAt: z.number().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.number().nullable(),
});

/** `crowdsec-link`: this PBX's link to an upstream CrowdSec Local API (issue 23), applied live by the web thread. */
export const crowdsecLinkDeclaration = {
  name: 'crowdsec-link',
  description:
    'Share bans with other sites through a CrowdSec Local API (LAPI): this PBX pushes its bans ' +
    'as a CrowdSec machine and pulls the LAPI decisions as a bouncer. Changes apply live. Its ' +
    'whitelist, trusted networks and loopback are never banned, whatever the LAPI says.',
  processor: 'CrowdsecLinkProcessor',
  ...adminSettingsSingleton('CrowdsecLink'),
  fields: CROWDSEC_LINK_FIELDS,
  customMethods: {
    getStatus: {
      ...READ_ON_COLLECTION,
      description:
        'Link state: `{enabled, connected, state, queueLength, lastPushAt, lastPullAt, lastError, ' +
        'push, pull}`; `state` is `off`, `connecting`, `connected` or `error`, with the reason in ' +
        '`lastError`.',
      input: NO_QUERY,
      output: z.object({
        enabled: z.boolean(),
        connected: z.boolean(),
        state: z.enum(['off', 'connecting', 'connected', 'error']),
        queueLength: z.number().int(),
        lastPushAt: isoTime.nullable(),
        lastPullAt: isoTime.nullable(),
        lastError: z.string().nullable(),
        lastErrorAt: isoTime.nullable(),
        push: direction.extend({
          lastSentAt: z.number().nullable().describe('Epoch ms when the LAPI last accepted alerts or a deletion.'),
          sent: z.number().int(),
          deleted: z.number().int(),
          dropped: z.number().int(),
        }),
        pull: direction.extend({
          decisions: z.number().int(),
          skipped: z.record(z.string(), z.number().int()),
          droppedAnswers: z.number().int(),
        }),
        reportedAt: isoTime.nullable(),
      }),
    },
  },
} satisfies ResourceDeclaration;
