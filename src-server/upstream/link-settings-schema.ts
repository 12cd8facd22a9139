import { z } from 'zod';
import { boundedInteger, rangeText, SETTING_BOUNDS } from '../config/setting-bounds.ts';
import { BAN_CATEGORIES } from '../firewall/decisions.ts';
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

/** Whether `text` is an absolute http:// or https:// URL. */
function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
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
      .refine((v) => v === '' || isHttpUrl(v), 'must be an http:// or https:// URL'),
    { default: '', description: 'LAPI base URL, e.g. http://192.0.2.10:8080/ (`api_url` of a bouncer).' },
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
