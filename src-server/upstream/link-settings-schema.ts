import { z } from 'zod';
import { boundedInteger, rangeText, SETTING_BOUNDS } from '../config/setting-bounds.ts';
import { BAN_CATEGORIES } from '../firewall/model/index.ts';
import { field, oneLineText } from '../resource-kit/fields.ts';
import type { FieldDef } from '../resource-kit/types.ts';

/** Longest credential accepted (login, password, bouncer key). */
export const MAX_CREDENTIAL_LENGTH = 256;

/**
 * Where the server sends each stored secret: the password and the bouncer key to the URL, the
 * password as the login. Changing one needs SENSITIVE or those secrets re-entered (resource-kit/credential-destination.ts).
 */
export const LINK_CREDENTIAL_DESTINATIONS = {
  url: ['machinePassword', 'bouncerKey'],
  machineLogin: ['machinePassword'],
} as const;

/** A control character (below 0x20, or DEL) or any whitespace: never part of a URL or host this server sends to. */
export const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f\s]/u;

/** Why `text` is not a LAPI base URL this server may send credentials to; undefined when it is one. */
export function lapiUrlProblem(text: string): string | undefined {
  // Checked on the raw text: the URL parser silently drops tabs and line breaks.
  if (CONTROL_OR_SPACE.test(text)) return 'must not contain control characters, line breaks or spaces';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an http:// or https:// URL';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    return 'must be an http:// or https:// URL';
  if (url.username !== '' || url.password !== '')
    return 'must not hold a user name or password (user:password@): put them in machineLogin and machinePassword';
  return undefined;
}

/** Credentials are kept exactly as typed (no trimming): a password may hold spaces. */
const credential = (description: string, writeOnly: boolean) =>
  field.text(oneLineText(MAX_CREDENTIAL_LENGTH, `must be at most ${MAX_CREDENTIAL_LENGTH} characters`), {
    default: '',
    writeOnly,
    sanitize: (v) => v,
    description,
  });

/** The link's settings with their bounds and defaults: upstream owns them, the `crowdsec-link` resource serves them. */
export const CROWDSEC_LINK_FIELDS: Record<string, FieldDef> = {
  enabled: field.boolean({
    default: false,
    description: 'Turn the link on (push and pull as chosen below); false stops both at once.',
  }),
  url: field.text(
    z
      .string()
      .max(2048)
      .superRefine((v, ctx) => {
        const problem = v === '' ? undefined : lapiUrlProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    {
      default: '',
      // Kept exactly as sent: a trailing line break is refused, not trimmed away.
      sanitize: (v) => v,
      description:
        'LAPI base URL, e.g. http://192.0.2.10:8080/ (`api_url` of a bouncer); no user:password@, no ' +
        'control characters or spaces. Changing it needs the SENSITIVE level or the stored password ' +
        'and bouncer key re-entered.',
    },
  ),
  siteName: field.text(oneLineText(64), {
    default: '',
    description: "This PBX's name in the alerts it pushes (message and meta `pbx_site`); empty uses the host name.",
  }),
  pushEnabled: field.boolean({
    default: true,
    description: 'Push this PBX’s bans to the LAPI as alerts (machine credentials needed).',
  }),
  machineLogin: credential('Machine login (`cscli machines add <login> --password ...`), 1-256 characters.', false),
  machinePassword: credential('Machine password, 1-256 characters; write-only.', true),
  shareCategories: field.json(z.array(z.enum(BAN_CATEGORIES)).max(BAN_CATEGORIES.length), {
    default: [...BAN_CATEGORIES],
    description: 'Intrusion-ban categories to share (`sip`, `http`, `ami`, `iax`).',
  }),
  shareManual: field.boolean({
    default: true,
    description: 'Share the operator’s manual bans (scenario `pbx/manual`).',
  }),
  shareFilters: field.boolean({
    default: false,
    description:
      'Share network-filter deny entries too (scenario `pbx/manual`, 596 h, renewed every 20 days ' +
      'while the entry exists; removed upstream when the entry is).',
  }),
  pullEnabled: field.boolean({
    default: false,
    description: 'Pull the LAPI decisions as a bouncer and enforce them here (bouncer key needed).',
  }),
  bouncerKey: credential('Bouncer API key (`cscli bouncers add <name>`), 1-256 characters; write-only.', true),
  republish: field.boolean({
    default: true,
    description:
      'Publish pulled decisions to this PBX’s own bouncers and feeds too, with their upstream ' +
      'origin and scenario; false enforces them on this server only (403).',
  }),
  pullIntervalSeconds: field.integer(boundedInteger(SETTING_BOUNDS['crowdsec-link'].pullIntervalSeconds), {
    default: 10,
    description: `Seconds between two polls of the LAPI stream (${rangeText(SETTING_BOUNDS['crowdsec-link'].pullIntervalSeconds)}).`,
  }),
};
