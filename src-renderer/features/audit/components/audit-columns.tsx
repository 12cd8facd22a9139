import { Badge, Stack, Text } from '@mantine/core';
import type { DataTableColumn } from '../../../components/DataTable.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { auditSentence } from '../api/audit-sentence.ts';
import type { AuditChannel, AuditEntry, AuditKind } from '../api/get-audit-log.ts';
import { AuditDetails, attempts } from './AuditDetails.tsx';

export const KINDS: { value: AuditKind; label: string; color: string }[] = [
  { value: 'write', label: 'Change', color: 'blue' },
  { value: 'rejected-key', label: 'Rejected key', color: 'red' },
  { value: 'failed-login', label: 'Failed login', color: 'orange' },
  { value: 'notification', label: 'Notification', color: 'grape' },
  { value: 'account-flagged', label: 'Account flagged', color: 'yellow' },
];

export const CHANNELS: { value: AuditChannel; label: string }[] = [
  { value: 'localhost', label: 'Localhost' },
  { value: 'jwt', label: 'Token (JWT)' },
  { value: 'session', label: 'Session' },
  { value: 'api_key', label: 'API key' },
];

const kindOf = (kind: string) => KINDS.find((k) => k.value === kind);
const channelLabel = (channel: string | null) => CHANNELS.find((c) => c.value === channel)?.label ?? '—';

/** Who: the user, or the API key by id and description. */
export function actorText(entry: AuditEntry): string {
  if (entry.channel === 'localhost') return 'Localhost (this machine)';
  if (entry.keyId !== null) return `API key #${entry.keyId}${entry.keyDescription ? ` (${entry.keyDescription})` : ''}`;
  if (entry.kind === 'failed-login') return entry.actor ? `login "${entry.actor}"` : 'no login';
  if (entry.kind === 'account-flagged') return `account ${entry.actor ?? '—'}`;
  return entry.actor ?? '—';
}

/** The audit log's columns: when, kind, who, from where, what, status and the changed fields. */
export const AUDIT_COLUMNS: DataTableColumn<AuditEntry>[] = [
  { header: 'When', card: 'title', render: (entry) => formatDateTime(entry.at) },
  {
    header: 'Kind',
    render: (entry) => (
      <Badge variant="light" color={kindOf(entry.kind)?.color ?? 'gray'} style={{ minWidth: 'max-content' }}>
        {kindOf(entry.kind)?.label ?? entry.kind}
      </Badge>
    ),
  },
  {
    header: 'Who',
    render: (entry) => (
      <Stack gap={0}>
        <Text size="sm">{actorText(entry)}</Text>
        {entry.channel !== 'localhost' && (
          <Text size="xs" c="dimmed">
            {channelLabel(entry.channel)}
          </Text>
        )}
      </Stack>
    ),
  },
  { header: 'From', mono: true, render: (entry) => entry.address },
  { header: 'What', card: 'wide', render: (entry) => <Text size="sm">{auditSentence(entry)}</Text> },
  {
    header: 'Status',
    render: (entry) => (
      <Badge variant="outline" color={entry.status < 400 ? 'teal' : 'red'} style={{ minWidth: 'max-content' }}>
        {entry.status}
      </Badge>
    ),
  },
  { header: 'Details', card: 'wide', render: (entry) => <AuditDetails entry={entry} /> },
];

/** A row's name for screen readers: the sentence, its time and how often it was repeated. */
export const auditRowLabel = (entry: AuditEntry) =>
  `${auditSentence(entry)} at ${formatDateTime(entry.at)}${entry.count > 1 ? `, ${attempts(entry.count)}` : ''}`;
