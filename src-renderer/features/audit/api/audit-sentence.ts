import { formatDateTime, formatExactDuration } from '../../../lib/format.ts';
import type { AuditChange, AuditEntry } from './get-audit-log.ts';

/** What each resource is called in a sentence, and how one of its records is named. */
const RESOURCES: Record<string, { noun: string; name?: (values: Record<string, unknown>) => string | undefined }> = {
  firewall: { noun: 'network filter', name: (v) => text(v.permit) },
  'network-filters': { noun: 'network filter', name: (v) => text(v.permit) },
  'api-keys': { noun: 'key', name: (v) => (v.description ? `'${text(v.description)}'` : undefined) },
  extensions: {
    noun: 'extension',
    name: (v) => [text(v.number), v.username ? `(${text(v.username)})` : ''].filter(Boolean).join(' ') || undefined,
  },
  providers: { noun: 'provider', name: (v) => (v.description ? `'${text(v.description)}'` : undefined) },
  fail2ban: { noun: 'ban rules' },
  'general-settings': { noun: 'general settings' },
  ami: { noun: 'Asterisk manager connection' },
  https: { noun: 'HTTPS settings' },
};

/** Field labels as the console's forms show them, per resource. */
const LABELS: Record<string, Record<string, string>> = {
  fail2ban: {
    maxretry: 'Failures before a ban',
    findtime: 'Counting window',
    bantime: 'Ban duration',
    whitelist: 'Whitelist',
    PBXFirewallMaxReqSec: 'Max requests per second',
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
  },
  'api-keys': {
    description: 'Description',
    networkfilterid: 'Allowed source',
    expires_at: 'Expiry',
    enabled: 'Enabled',
    allowed_paths: 'Access',
    full_permissions: 'Full permissions',
    expand_ranges: 'Ranges expanded (nftables)',
  },
  ami: { enabled: 'Connect to the Asterisk manager', host: 'Host', port: 'Port', username: 'User', secret: 'Secret' },
  https: { enabled: 'Serve HTTPS', port: 'HTTPS port', certFile: 'Certificate file', keyFile: 'Private key file' },
  extensions: { number: 'Number', username: 'Name', secret: 'Secret' },
};

/** Fields stored in seconds: shown in the units the forms use. */
const SECONDS = new Set(['findtime', 'bantime', 'APIRequestTTL', 'duration']);
const DAYS = new Set(['banHistoryRetentionDays', 'auditRetentionDays']);

const text = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** A field's label as its form shows it; the API name when the console has no form for it. */
export const fieldLabel = (resource: string | null, field: string) => LABELS[resource ?? '']?.[field] ?? field;

/** A value as the forms show it: durations in units, dates in the console's format, yes/no, services in words. */
export function valueText(field: string, value: unknown): string {
  if (value === undefined) return '—';
  if (value === null || value === '') return field === 'expires_at' ? 'never' : '(empty)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (SECONDS.has(field) && typeof value === 'number') return formatExactDuration(value);
  if (DAYS.has(field) && typeof value === 'number') return `${value} ${value === 1 ? 'day' : 'days'}`;
  if (field === 'expires_at' && typeof value === 'string') return formatDateTime(value);
  if ((field === 'rules' || field === 'currentRules') && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([service, rule]) => `${service} ${rule === 'block' || rule === false ? 'blocked' : 'allowed'}`)
      .join(', ');
  }
  const shown = text(value);
  return shown.length > 80 ? `${shown.slice(0, 77)}…` : shown;
}

const valuesOf = (diff: AuditChange[], side: 'before' | 'after') =>
  Object.fromEntries(diff.filter((c) => side in c).map((c) => [c.field, c[side]]));

/** "Failures before a ban 20 → 5, Ban duration 10 min → 2 h" (the first three, then how many more). */
function changesText(resource: string | null, diff: AuditChange[]): string {
  const parts = diff.map((c) => {
    const label = fieldLabel(resource, c.field);
    if (!('before' in c)) return `${label} set to ${valueText(c.field, c.after)}`;
    if (!('after' in c)) return `${label} cleared`;
    return `${label} ${valueText(c.field, c.before)} → ${valueText(c.field, c.after)}`;
  });
  return parts.length > 3 ? `${parts.slice(0, 3).join(', ')} and ${parts.length - 3} more` : parts.join(', ');
}

/**
 * One entry as a sentence a technician reads: "Changed key 'edge firewall': Expiry set to …",
 * "Unbanned 198.51.100.99", "Refused API key #3 on GET …: this API key is disabled".
 */
export function auditSentence(entry: AuditEntry): string {
  if (entry.kind === 'account-flagged') return entry.reason ?? `Account ${entry.actor ?? ''} flagged`;
  if (entry.kind === 'failed-login')
    return `Failed sign-in${entry.actor ? ` as "${entry.actor}"` : ''}: ${entry.reason ?? 'refused'}`;
  if (entry.kind === 'notification') return `Notification channel #${entry.recordId ?? ''}: ${entry.reason ?? ''}`;
  if (entry.kind === 'rejected-key') {
    const key =
      entry.keyId !== null
        ? `API key #${entry.keyId}${entry.keyDescription ? ` ('${entry.keyDescription}')` : ''}`
        : 'an unknown API key';
    return (
      `Refused ${key} on ${entry.verb ?? ''} ${entry.path ?? ''}`.trimEnd() + (entry.reason ? `: ${entry.reason}` : '')
    );
  }
  const resource = entry.resource ?? '';
  const kind = RESOURCES[resource];
  const noun = kind?.noun ?? resource;
  const before = valuesOf(entry.diff, 'before');
  const after = valuesOf(entry.diff, 'after');
  const name = kind?.name?.({ ...before, ...after }) ?? (entry.recordId ? `#${entry.recordId}` : '');
  const refused = entry.status >= 400 ? ` (refused, HTTP ${entry.status})` : '';
  const named = `${noun}${name ? ` ${name}` : ''}`;
  switch (entry.operation) {
    case 'create':
      return `Created ${named}${refused}`;
    case 'delete':
      return `Deleted ${named}${refused}`;
    case 'update':
    case 'patch': {
      const changes = changesText(resource, entry.diff);
      return `Changed ${named}${changes ? `: ${changes}` : ''}${refused}`;
    }
    case 'banIp':
      return (
        `Banned ${text(after.ip)}` +
        (typeof after.duration === 'number'
          ? ` for ${formatExactDuration(after.duration)}`
          : after.duration === 'permanent'
            ? ' for good'
            : '') +
        (after.reason ? ` (${text(after.reason)})` : '') +
        refused
      );
    case 'unbanIp':
      return `Unbanned ${text(after.ip)}${refused}`;
    case 'unbanIps':
      return `Unbanned ${Array.isArray(after.ips) ? `${after.ips.length} addresses` : 'addresses'}${refused}`;
    case 'rotate':
      return `Rotated ${named}${refused}`;
    case 'setPassword':
      return `Changed the administrator password${refused}`;
    case 'importConfig':
      return `Imported a configuration${after.dryRun === true ? ' (preview only)' : ''}${refused}`;
    default:
      return `${entry.operation ?? 'Changed'} ${named}${refused}`;
  }
}
