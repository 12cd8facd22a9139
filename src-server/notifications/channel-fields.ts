import { z } from 'zod';
import { isIP } from 'node:net';
import { field, oneLineText } from '../resource-kit/fields.ts';
import { HEALTH_SEVERITIES } from './severity.ts';

export const CHANNEL_TYPES = ['webhook', 'email', 'syslog', 'ntfy'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

const HOSTNAME =
  /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;
/** A host name (RFC 1123) or an IPv4/IPv6 address, nothing else (no scheme, port, space or control character). */
export const isHost = (value: string): boolean => HOSTNAME.test(value) || isIP(value) !== 0;

/** An http(s) URL without user name or password (a token goes in `secret`, which is sealed). */
export function urlProblem(value: string): string | undefined {
  if (/[\u0000-\u001f\u007f\s]/.test(value)) return 'must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (url.username || url.password) return 'must not carry a user name or password (put a token in secret)';
  if (!url.hostname) return 'must name a host';
  return undefined;
}

// A plain address: no display name, comment, quote, angle bracket, comma or control character can reach a header.
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;
export const isMailAddress = (value: string): boolean => ADDRESS.test(value) && isHost(value.split('@')[1]!);
const MAX_RECIPIENTS = 10;

const url = oneLineText(2048, 'must be at most 2048 characters').superRefine((value, ctx) => {
  const problem = urlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const host = z
  .string()
  .max(253)
  .refine(isHost, { error: 'must be a host name or an IP address (no scheme, port or spaces)' });
const recipients = z
  .string()
  .max(2000)
  .refine(
    (value) => {
      const list = value.split(',').map((part) => part.trim());
      return list.length <= MAX_RECIPIENTS && list.every(isMailAddress);
    },
    { error: `must be 1-${MAX_RECIPIENTS} e-mail addresses separated by commas` },
  );
/** RFC 5424 APP-NAME: 1-48 printable US-ASCII characters, no space. */
const appName = z.string().regex(/^[\x21-\x7e]{1,48}$/, 'must be 1-48 printable ASCII characters without spaces');
const optional = { default: null } as const;

/**
 * A channel's fields, flat: each type reads the ones it needs (validateChannel says which). The
 * secret is the webhook's HMAC key, the SMTP password or the ntfy access token; it is sealed at
 * rest and never returned (`hasSecret` says whether one is stored).
 */
export const CHANNEL_FIELDS = {
  id: field.recordId(),
  name: field.text(oneLineText(64, 'must be at most 64 characters').min(1, 'is required'), { required: true }),
  type: field.text(z.enum(CHANNEL_TYPES), {
    required: true,
    description: '`webhook` (signed JSON POST), `email` (SMTP), `syslog` (RFC 5424) or `ntfy` (HTTP push).',
  }),
  enabled: field.boolean({ default: true }),
  url: field.text(url.nullable(), {
    ...optional,
    description: 'webhook: the URL to POST to; ntfy: the server, e.g. `https://ntfy.sh`.',
  }),
  topic: field.text(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, - or _')
      .nullable(),
    {
      ...optional,
      description: 'ntfy: the topic.',
    },
  ),
  host: field.text(host.nullable(), { ...optional, description: 'email: the SMTP server; syslog: the collector.' }),
  port: field.integer(z.number().int().min(1, 'must be 1-65535').max(65535, 'must be 1-65535').nullable(), {
    ...optional,
    description: 'email: 587 (STARTTLS) or 465 (TLS); syslog: 514 (UDP) or 601 (TCP); null for the other types.',
  }),
  transport: field.text(z.enum(['udp', 'tcp']).nullable(), { ...optional, description: 'syslog: `udp` or `tcp`.' }),
  security: field.text(z.enum(['starttls', 'tls']).nullable(), {
    ...optional,
    description: 'email: `starttls` (required upgrade, port 587) or `tls` (port 465). Plain SMTP is not offered.',
  }),
  tlsVerify: field.boolean({ default: true, description: "email: check the mail server's certificate." }),
  username: field.text(oneLineText(256).nullable(), { ...optional, description: 'email: the SMTP login, if any.' }),
  from: field.text(z.string().max(320).refine(isMailAddress, 'must be one e-mail address').nullable(), optional),
  to: field.text(recipients.nullable(), { ...optional, description: 'email: recipients, separated by commas.' }),
  appName: field.text(appName.nullable(), { ...optional, description: 'syslog: APP-NAME; `pbx-console` when empty.' }),
  secret: field.text(oneLineText(1024, 'must be at most 1024 characters').nullable(), {
    writeOnly: true,
    description: 'webhook: the HMAC-SHA256 key; email: the SMTP password; ntfy: an access token. Never returned.',
  }),
  hasSecret: field.boolean({ readOnly: true, description: 'A secret is stored.' }),
  lastResult: field.json(
    z
      .object({
        at: z.string(),
        ok: z.boolean(),
        message: z.string(),
        test: z.boolean(),
      })
      .nullable(),
    { readOnly: true, description: 'The last send: when, whether it was delivered, and what the receiver said.' },
  ),
};

const NEEDS: Record<ChannelType, string[]> = {
  webhook: ['url', 'secret'],
  ntfy: ['url', 'topic'],
  email: ['host', 'port', 'security', 'from', 'to'],
  syslog: ['host', 'port', 'transport'],
};

/** What a channel of its type needs; 422 messages naming each missing field. */
export function validateChannel(complete: Record<string, unknown>): string[] {
  const type = complete.type as ChannelType;
  const missing = (NEEDS[type] ?? []).filter(
    (name) => complete[name] === undefined || complete[name] === null || complete[name] === '',
  );
  const problems = missing.map((name) => `${name} is required for a ${type} channel.`);
  if (type === 'email' && complete.username && !complete.secret)
    problems.push('secret is required with username (the SMTP password).');
  return problems;
}

/** The fields that say where the secret goes: changing one moves it (resource-kit/credential-destination.ts). */
export const CHANNEL_CREDENTIAL_DESTINATIONS = {
  url: ['secret'],
  host: ['secret'],
  port: ['secret'],
  username: ['secret'],
  type: ['secret'],
} as const;

export { HEALTH_SEVERITIES };
