import { z } from 'zod';
import { CROWDSEC_LINK_FIELDS } from '../../upstream/link-settings-schema.ts';
import { adminSettingsSingleton } from '../../resource-kit/settings-singleton.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { isoTime, NO_QUERY, READ_ON_COLLECTION } from '../../resource-kit/contract.ts';
import { flagInput } from '../../resource-kit/fields.ts';

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
        share: z
          .object({
            at: isoTime,
            queued: z.number().int().describe('Bans in force the last shareActiveBans queued.'),
            sent: z.number().int().describe('Of those, how many have left the queue (the LAPI took them).'),
            waiting: z.number().int(),
          })
          .nullable()
          .describe('The last crowdsec-link:shareActiveBans run and its progress; null when never run.'),
      }),
    },
    shareActiveBans: {
      verbs: ['POST'],
      scope: 'collection',
      level: 'ADMIN',
      description:
        'Shares the bans in force that linking left unshared: every active ban the link pushes ' +
        '(its shared categories and manual bans, never upstream decisions) that the LAPI was not ' +
        'given yet goes into the durable push queue, once (a second run queues only what is new). ' +
        '`dryRun: true` only counts them. Progress in getStatus `share`. 422 when the link or pushing ' +
        'is off (a dry run still counts). {dryRun, queued, alreadyShared}.',
      input: z.object({ dryRun: flagInput().default(false) }),
      output: z.object({
        dryRun: z.boolean(),
        queued: z.number().int().describe('Bans queued now (or that would be, on a dry run).'),
        alreadyShared: z.number().int().describe('Bans in force already queued or sent.'),
      }),
    },
  },
} satisfies ResourceDeclaration;
