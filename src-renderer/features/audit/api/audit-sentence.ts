import { formatExactDuration } from '../../../lib/format.ts';
import { entryText, fieldLabel, text, valueText } from './audit-values.ts';
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
  'crowdsec-link': { noun: 'CrowdSec link' },
  openapi: { noun: 'API description' },
};

const valuesOf = (diff: AuditChange[], side: 'before' | 'after') =>
  Object.fromEntries(diff.filter((c) => side in c).map((c) => [c.field, c[side]]));

/** "Whitelist entries: added 203.0.113.50 ('Branch NAT', for good); removed 10.0.0.1 (for good)". */
function whitelistChange(before: unknown, after: unknown): string {
  const list = (value: unknown) => (Array.isArray(value) ? (value as Array<{ value?: unknown }>) : []);
  const key = (entry: unknown) => JSON.stringify(entry);
  const old = new Set(list(before).map(key));
  const now = new Set(list(after).map(key));
  const added = list(after).filter((e) => !old.has(key(e)));
  const removed = list(before).filter((e) => !now.has(key(e)));
  const parts = [
    added.length ? `added ${added.map(entryText).join('; ')}` : '',
    removed.length ? `removed ${removed.map(entryText).join('; ')}` : '',
  ].filter(Boolean);
  return `Whitelist entries: ${parts.join('; ') || 'reordered'}`;
}

/** "Failures before a ban 20 → 5, Ban duration 10 min → 2 h" (the first three, then how many more). */
function changesText(resource: string | null, diff: AuditChange[]): string {
  const parts = diff.map((c) => {
    const label = fieldLabel(resource, c.field);
    if (c.field === 'whitelistEntries') return whitelistChange(c.before, c.after);
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
    case 'importBans':
      return `Imported a ban list${after.format ? ` (${text(after.format)})` : ''}${importedText(after.imported)}${refused}`;
    case 'unbanAndWhitelist':
      return `Unbanned and whitelisted ${text(after.ip)}${whitelistNotes(after)}${liftedText(after.liftedBans)}${refused}`;
    case 'shareActiveBans':
      return `Shared the bans in force with the CrowdSec LAPI${sharedText(after.sharedBans)}${refused}`;
    case 'renewCertificate':
      return `Renewed the HTTPS certificate${refused}`;
    case 'clearCache':
      return `Cleared the API description cache${refused}`;
    case 'importConfig':
      return `Imported a configuration${after.dryRun === true ? ' (preview only)' : ''}${refused}`;
    default:
      return `${entry.operation ?? 'Changed'} ${named}${refused}`;
  }
}

/** ": 10 added, 2 extended, 0 unchanged" from an import's recorded counts. */
function importedText(imported: unknown): string {
  return imported && typeof imported === 'object' ? `: ${valueText('imported', imported)}` : '';
}

/** " ('Branch NAT', until …)" / " (for good)". */
function whitelistNotes(after: Record<string, unknown>): string {
  const notes = [
    after.comment ? `'${text(after.comment)}'` : '',
    after.until ? `until ${valueText('until', after.until)}` : 'for good',
  ];
  return ` (${notes.filter(Boolean).join(', ')})`;
}

/** "; 2 bans lifted: 198.51.100.7 (sip), …". */
function liftedText(lifted: unknown): string {
  if (!Array.isArray(lifted) || lifted.length === 0) return '; no ban was in force';
  return `; ${lifted.length === 1 ? '1 ban' : `${lifted.length} bans`} lifted: ${valueText('liftedBans', lifted)}`;
}

/** ": 316 queued (4 already shared)". */
function sharedText(shared: unknown): string {
  if (!shared || typeof shared !== 'object') return '';
  const { queued, alreadyShared } = shared as { queued?: number; alreadyShared?: number };
  return `: ${queued ?? 0} queued${alreadyShared ? ` (${alreadyShared} already shared)` : ''}`;
}
