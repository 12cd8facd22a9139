import type { Channel, ChannelBody } from '../api/channels.ts';

export type ChannelType = Channel['type'];

export const CHANNEL_TYPES: { value: ChannelType; label: string; description: string }[] = [
  { value: 'email', label: 'E-mail', description: 'Through your mail server (SMTP with STARTTLS or TLS)' },
  { value: 'webhook', label: 'Webhook', description: 'A signed JSON POST to your URL' },
  { value: 'ntfy', label: 'ntfy push', description: 'A push to phones through an ntfy server' },
  { value: 'syslog', label: 'Syslog', description: 'RFC 5424 lines to a log collector (UDP or TCP)' },
];

export const typeLabel = (type: ChannelType) => CHANNEL_TYPES.find((t) => t.value === type)?.label ?? type;

/** The form's values: every field as text, so an input is never uncontrolled. */
export interface ChannelInput {
  name: string;
  type: ChannelType;
  enabled: boolean;
  url: string;
  topic: string;
  host: string;
  port: string;
  transport: 'udp' | 'tcp';
  security: 'starttls' | 'tls';
  tlsVerify: boolean;
  username: string;
  from: string;
  to: string;
  appName: string;
  secret: string;
}

export const emptyChannelInput = (): ChannelInput => ({
  name: '',
  type: 'email',
  enabled: true,
  url: '',
  topic: '',
  host: '',
  port: '587',
  transport: 'udp',
  security: 'starttls',
  tlsVerify: true,
  username: '',
  from: '',
  to: '',
  appName: '',
  secret: '',
});

export const toChannelInput = (channel: Channel): ChannelInput => ({
  ...emptyChannelInput(),
  name: channel.name,
  type: channel.type,
  enabled: channel.enabled,
  url: channel.url ?? '',
  topic: channel.topic ?? '',
  host: channel.host ?? '',
  port: channel.port === null ? '' : String(channel.port),
  transport: channel.transport ?? 'udp',
  security: channel.security ?? 'starttls',
  tlsVerify: channel.tlsVerify,
  username: channel.username ?? '',
  from: channel.from ?? '',
  to: channel.to ?? '',
  appName: channel.appName ?? '',
});

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** What the server takes: the fields of the chosen type, the others cleared; an empty secret keeps the stored one. */
export function toChannelBody(input: ChannelInput): ChannelBody {
  const uses = (...types: ChannelType[]) => types.includes(input.type);
  const port = input.port.trim();
  const body: ChannelBody = {
    name: input.name.trim(),
    type: input.type,
    enabled: input.enabled,
    url: uses('webhook', 'ntfy') ? orNull(input.url) : null,
    topic: uses('ntfy') ? orNull(input.topic) : null,
    host: uses('email', 'syslog') ? orNull(input.host) : null,
    transport: uses('syslog') ? input.transport : null,
    security: uses('email') ? input.security : null,
    tlsVerify: input.tlsVerify,
    username: uses('email') ? orNull(input.username) : null,
    from: uses('email') ? orNull(input.from) : null,
    to: uses('email') ? orNull(input.to) : null,
    appName: uses('syslog') ? orNull(input.appName) : null,
  };
  // Only where the type has one; a port that is not a number goes as typed, for the server to name the field.
  body.port = null;
  if (uses('email', 'syslog') && port !== '')
    body.port = /^\d+$/.test(port) ? Number(port) : (port as unknown as number);
  if (input.secret !== '') body.secret = input.secret;
  return body;
}

export const CHANNEL_FIELDS = [
  'name',
  'type',
  'url',
  'topic',
  'host',
  'port',
  'transport',
  'security',
  'tlsVerify',
  'username',
  'from',
  'to',
  'appName',
  'secret',
] as const;

/** Where a channel sends, in a line. */
export function channelTarget(channel: Channel): string {
  switch (channel.type) {
    case 'email':
      return `${channel.to ?? ''} via ${channel.host ?? ''}:${channel.port ?? ''}`;
    case 'syslog':
      return `${channel.host ?? ''}:${channel.port ?? ''} (${(channel.transport ?? 'udp').toUpperCase()})`;
    case 'ntfy':
      return `${(channel.url ?? '').replace(/\/+$/, '')}/${channel.topic ?? ''}`;
    default:
      return channel.url ?? '';
  }
}
