import { z } from 'zod';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { isoTime } from '../../resource-kit/contract.ts';
import { flagInput } from '../../resource-kit/fields.ts';

/** What importConfig takes. */
const SHAPE = 'the request body must be {config: <an export>, dryRun?: boolean}.';

/** What an import adds, changes and removes in one section. */
const sectionChanges = z.object({
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
});

/** Configuration backup and restore (docs/settings.md "Backup and restore"). */
export const backupDeclaration = {
  name: 'backup',
  description:
    'Configuration backup: network filters, fail2ban rules (whitelist included), general ' +
    'settings, AMI settings, the CrowdSec link, the extensions and API key metadata as one versioned JSON document.',
  processor: 'BackupProcessor',
  security: { permission: 'Backup', channels: ['localhost', 'bearer_token'] },
  fields: {},
  operations: [],
  customMethods: {
    exportConfig: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'ADMIN',
      description:
        'The configuration as `{format, version, serverVersion, exportedAt, secretsIncluded, ' +
        'networkFilters, fail2ban, generalSettings, ami, crowdsecLink, extensions, apiKeys}`. API keys are ' +
        'metadata only (never a key value or hash). `?secrets=true` adds the AMI secret, the ' +
        "extensions' SIP passwords and the link password and bouncer key, and needs the SENSITIVE level.",
      input: z.object({ secrets: flagInput().optional() }),
      output: z.object({
        format: z.literal('pbx-console-config'),
        version: z.number().int(),
        serverVersion: z.string(),
        exportedAt: isoTime,
        secretsIncluded: z.boolean(),
        networkFilters: z.array(z.record(z.string(), z.unknown())),
        fail2ban: z.record(z.string(), z.unknown()),
        generalSettings: z.record(z.string(), z.unknown()),
        ami: z.record(z.string(), z.unknown()),
        crowdsecLink: z.record(z.string(), z.unknown()),
        extensions: z.array(z.record(z.string(), z.unknown())),
        apiKeys: z.array(z.record(z.string(), z.unknown())),
      }),
    },
    importConfig: {
      verbs: ['POST'],
      scope: 'collection',
      level: 'ADMIN',
      description:
        "`{config, dryRun}`: validates every section with the resources' own rules, then replaces " +
        'filters (ids kept), fail2ban, general settings, AMI, the CrowdSec link and the extensions (each ' +
        'when the file has it) in one transaction. Answers what ' +
        'was (or, with `dryRun: true`, would be) added, changed and removed per section. API keys ' +
        'are never restored: keys are secrets, issue new ones. Invalid input gets 422 naming the ' +
        'section and field, and nothing is written: types are strict (`"77"` for a number is ' +
        'refused, never converted) and filter ids run from 1 to 2147483647. Key metadata naming a ' +
        'filter the file lacks is accepted with an entry in `warnings`. Validation runs outside the ' +
        'write transaction; a dry run never takes the write lock. An AMI secret or link credential ' +
        'in the file, or a changed extension SIP password, needs SENSITIVE, and so does moving stored ones to another host or LAPI.',
      input: z.object(
        {
          config: z.custom((v) => v !== undefined, { error: SHAPE }),
          dryRun: flagInput().optional(),
        },
        { error: `config: ${SHAPE}` },
      ),
      output: z.object({
        dryRun: z.boolean(),
        applied: z.boolean(),
        sections: z.object({
          networkFilters: sectionChanges,
          fail2ban: sectionChanges,
          generalSettings: sectionChanges,
          ami: sectionChanges,
          crowdsecLink: sectionChanges,
          extensions: sectionChanges,
          apiKeys: sectionChanges.extend({ notRestored: z.number().int(), note: z.string() }),
        }),
        warnings: z.array(z.string()),
      }),
    },
  },
} satisfies ResourceDeclaration;
