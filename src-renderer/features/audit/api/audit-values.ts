import { formatDateTime, formatExactDuration } from '../../../lib/format.ts';

/** Field labels as the console's forms show them, per resource. */
const LABELS: Record<string, Record<string, string>> = {
  fail2ban: {
    maxretry: 'Failures before a ban',
    findtime: 'Counting window',
    bantime: 'Ban duration',
    whitelist: 'Whitelist',
    whitelistEntries: 'Whitelist entries',
    PBXFirewallMaxReqSec: 'Max requests per second',
    liftedBans: 'Bans lifted',
    carvedBans: 'Range bans carved',
  },
  'general-settings': {
    APIQueueMaxLength: 'Queue length',
    APIRequestTTL: 'Request age limit',
    banHistoryRetentionDays: 'Keep ban history for',
    auditRetentionDays: 'Keep audit log for',
  },
  firewall: {
    permit: 'Network',
    deny: 'Deny',
    description: 'Description',
    newer_block_ip: 'Trusted',
    local_network: 'Local network',
    rules: 'Services',
    currentRules: 'Services',
    ip: 'Address',
    ips: 'Addresses',
    comment: 'Comment',
    until: 'Until',
    reason: 'Reason',
    duration: 'Duration',
    services: 'Services',
    format: 'List format',
    content: 'List',
    imported: 'Imported',
    liftedBans: 'Bans lifted',
    carvedBans: 'Range bans carved',
  },
  'api-keys': {
    description: 'Description',
    networkfilterid: 'Allowed source',
    expires_at: 'Expiry',
    enabled: 'Enabled',
    allowed_paths: 'Access',
    full_permissions: 'Full permissions',
    expand_ranges: 'Ranges expanded (nftables)',
    key: 'Key',
    key_display: 'Key',
    has_key: 'Key stored',
    bouncer_setup: 'Bouncer type',
    status: 'Status',
    disabled_at: 'Disabled on',
    rotated_at: 'Last rotated',
    created_at: 'Created',
    last_used_at: 'Last used',
    last_used_ip: 'Last used from',
    sources: 'Recent sources',
  },
  'crowdsec-link': {
    enabled: 'Share bans through a CrowdSec LAPI',
    url: 'LAPI URL',
    siteName: "This site's name",
    pushEnabled: "Push this PBX's bans",
    machineLogin: 'Machine login',
    machinePassword: 'Machine password',
    shareCategories: 'Bans to share',
    shareManual: 'Manual bans',
    shareFilters: 'Network filter blocks',
    pullEnabled: "Pull the LAPI's decisions",
    bouncerKey: 'Bouncer key',
    republish: 'Also publish pulled decisions',
    pullIntervalSeconds: 'Poll every (seconds)',
    sharedBans: 'Bans in force shared',
  },
  ami: { enabled: 'Connect to the Asterisk manager', host: 'Host', port: 'Port', username: 'User', secret: 'Secret' },
  https: { enabled: 'Serve HTTPS', port: 'HTTPS port', certFile: 'Certificate file', keyFile: 'Private key file' },
  extensions: { number: 'Number', username: 'Name', secret: 'Secret' },
};

/** Fields stored in seconds: shown in the units the forms use. */
const SECONDS = new Set(['findtime', 'bantime', 'APIRequestTTL', 'duration']);
const DAYS = new Set(['banHistoryRetentionDays', 'auditRetentionDays']);
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;
const BOUNCER_SETUPS: Record<string, string> = {
  iptables: 'Firewall bouncer (iptables)',
  nftables: 'Firewall bouncer (nftables)',
  'custom-bouncer': 'Custom bouncer',
  'router-feed': 'Router feed',
};

export const text = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** A field's label as its form shows it; the API name when the console has no form for it. */
export const fieldLabel = (resource: string | null, field: string) => LABELS[resource ?? '']?.[field] ?? field;

/** A whitelist entry in words: "203.0.113.50 ('Branch NAT', until 2026-12-01 18:00:00 CET)". */
export function entryText(entry: unknown): string {
  const { value, comment, until } = (entry ?? {}) as { value?: unknown; comment?: unknown; until?: unknown };
  const notes = [comment ? `'${text(comment)}'` : '', until ? `until ${formatDateTime(text(until))}` : 'for good'];
  return `${text(value)} (${notes.filter(Boolean).join(', ')})`;
}

/** Values that are lists or maps, in words. */
function structuredText(field: string, value: object): string | null {
  if (field === 'whitelistEntries' && Array.isArray(value))
    return value.length ? value.map(entryText).join('; ') : '(none)';
  if (field === 'rules' || field === 'currentRules')
    return Object.entries(value as Record<string, unknown>)
      .map(([service, rule]) => `${service} ${rule === 'block' || rule === false ? 'blocked' : 'allowed'}`)
      .join(', ');
  if (field === 'allowed_paths' && !Array.isArray(value)) {
    const paths = Object.entries(value as Record<string, unknown>).map(([path, level]) => `${path} (${text(level)})`);
    return paths.length ? paths.join(', ') : '(nothing)';
  }
  if (field === 'imported') {
    const counts = value as Record<string, number>;
    return `${counts.added ?? 0} added, ${counts.extended ?? 0} extended, ${counts.unchanged ?? 0} unchanged`;
  }
  if (Array.isArray(value) && value.every((each) => typeof each === 'string')) return value.join(', ') || '(none)';
  return null;
}

/** A value as the forms show it: durations in units, local dates, yes/no, lists and services in words. */
export function valueText(field: string, value: unknown): string {
  if (value === undefined) return '—';
  if (value === null || value === '') return field === 'expires_at' || field === 'until' ? 'never' : '(empty)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (SECONDS.has(field) && typeof value === 'number') return formatExactDuration(value);
  if (DAYS.has(field) && typeof value === 'number') return `${value} ${value === 1 ? 'day' : 'days'}`;
  if (typeof value === 'string' && ISO_TIME.test(value)) return formatDateTime(value);
  if (field === 'networkfilterid' && typeof value === 'string') {
    if (value === 'none') return 'Anywhere';
    if (value === 'localhost') return 'This computer only';
    return `Network filter #${value}`;
  }
  if (field === 'bouncer_setup' && typeof value === 'string') return BOUNCER_SETUPS[value] ?? value;
  const structured = typeof value === 'object' ? structuredText(field, value) : null;
  const shown = structured ?? text(value);
  return shown.length > 120 ? `${shown.slice(0, 117)}…` : shown;
}
