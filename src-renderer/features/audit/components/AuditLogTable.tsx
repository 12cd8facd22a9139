import { Badge, Button, Collapse, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconFileSpreadsheet } from '@tabler/icons-react';
import { useState } from 'react';
import { FilterSelect } from '../../../components/FilterSelect.tsx';
import { ServerPagedTable } from '../../../components/ServerPagedTable.tsx';
import { formatDateTime, plural } from '../../../lib/format.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { useServerPaging } from '../../../lib/use-server-paging.ts';
import { auditCsv } from '../api/audit-csv.ts';
import { auditSentence, fieldLabel, valueText } from '../api/audit-sentence.ts';
import {
  getAllAuditEntries,
  useAuditLog,
  type AuditChange,
  type AuditChannel,
  type AuditEntry,
  type AuditKind,
} from '../api/get-audit-log.ts';

const PAGE_SIZE = 25;

const KINDS: { value: AuditKind; label: string; color: string }[] = [
  { value: 'write', label: 'Change', color: 'blue' },
  { value: 'rejected-key', label: 'Rejected key', color: 'red' },
  { value: 'failed-login', label: 'Failed login', color: 'orange' },
];

const CHANNELS: { value: AuditChannel; label: string }[] = [
  { value: 'localhost', label: 'Localhost' },
  { value: 'jwt', label: 'Token (JWT)' },
  { value: 'session', label: 'Session' },
  { value: 'api_key', label: 'API key' },
];

const kindOf = (kind: string) => KINDS.find((k) => k.value === kind);
const channelLabel = (channel: string | null) => CHANNELS.find((c) => c.value === channel)?.label ?? '—';

/** Who: the user, or the API key by id and description. */
function actorText(entry: AuditEntry): string {
  if (entry.channel === 'localhost') return 'Localhost (this machine)';
  if (entry.keyId !== null) return `API key #${entry.keyId}${entry.keyDescription ? ` (${entry.keyDescription})` : ''}`;
  if (entry.kind === 'failed-login') return entry.actor ? `login "${entry.actor}"` : 'no login';
  return entry.actor ?? '—';
}

/** The fields a write changed: before → after (secrets are masked by the server). A create has no "Before", a delete no "After". */
function DiffTable({ diff, resource }: { diff: AuditChange[]; resource: string | null }) {
  const withBefore = diff.some((change) => 'before' in change);
  const withAfter = diff.some((change) => 'after' in change);
  const value = (change: AuditChange, side: 'before' | 'after') => (
    <Table.Td c={side in change ? undefined : 'dimmed'} style={{ wordBreak: 'break-word' }}>
      {side in change ? valueText(change.field, change[side]) : '—'}
    </Table.Td>
  );
  return (
    <Table withTableBorder withColumnBorders fz="xs" aria-label="Changed fields">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          {withBefore && <Table.Th>Before</Table.Th>}
          {withAfter && <Table.Th>After</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {diff.map((change) => (
          <Table.Tr key={change.field}>
            <Table.Td style={{ whiteSpace: 'nowrap' }} title={change.field}>
              {fieldLabel(resource, change.field)}
            </Table.Td>
            {withBefore && value(change, 'before')}
            {withAfter && value(change, 'after')}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const attempts = (count: number) => `${count.toLocaleString('en-US')} attempts`;

/** The row's details: the reason of a rejection, or a button that expands the changed fields. */
function Details({ entry }: { entry: AuditEntry }) {
  const [opened, { toggle }] = useDisclosure(false);
  if (entry.kind !== 'write')
    return (
      <Stack gap={0}>
        <Text size="sm">{entry.reason ?? '—'}</Text>
        {entry.count > 1 && (
          <Text size="xs" c="dimmed" data-testid="audit-repeats">
            {attempts(entry.count)}, the last at {formatDateTime(entry.lastAt)}
          </Text>
        )}
      </Stack>
    );
  if (entry.diff.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No field changed
      </Text>
    );
  const id = `audit-diff-${entry.id}`;
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="subtle"
        px={4}
        rightSection={opened ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
        aria-expanded={opened}
        aria-controls={id}
        onClick={toggle}
      >
        {opened ? 'Hide' : 'Show'} {plural(entry.diff.length, 'change', 'changes')}
      </Button>
      <Collapse expanded={opened} id={id}>
        <DiffTable diff={entry.diff} resource={entry.resource} />
      </Collapse>
    </Stack>
  );
}

/** A bound of the time range, in the browser's zone. */
function DateTimeField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const narrow = useNarrowScreen();
  return (
    <TextInput
      type="datetime-local"
      label={label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      w={narrow ? '100%' : 210}
    />
  );
}

/**
 * The audit log, newest first, searched, filtered and paged on the server: every change through any
 * channel with who made it, from where and the changed fields, plus rejected API keys and failed logins.
 */
export function AuditLogTable() {
  const paging = useServerPaging(PAGE_SIZE, {
    kind: '' as '' | AuditKind,
    channel: '' as '' | AuditChannel,
    // Local date-time fields (the browser's zone), sent as ISO instants.
    from: '',
    to: '',
  });
  const { kind, channel, from, to } = paging.filters;
  const since = from ? new Date(from).toISOString() : '';
  const until = to ? new Date(to).toISOString() : '';
  const [exporting, setExporting] = useState(false);
  const filter = { search: paging.debounced, kind, channel, resource: '', since, until };
  const log = useAuditLog({ ...filter, limit: PAGE_SIZE, offset: paging.offset });
  const exportCsv = async () => {
    setExporting(true);
    try {
      const entries = await getAllAuditEntries(filter);
      const url = URL.createObjectURL(new Blob([auditCsv(entries, actorText)], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `audit-log-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } finally {
      setExporting(false);
    }
  };

  return (
    <ServerPagedTable
      label="Audit log"
      noun="audit log entries"
      query={log}
      row={{
        label: (entry) =>
          `${auditSentence(entry)} at ${formatDateTime(entry.at)}${entry.count > 1 ? `, ${attempts(entry.count)}` : ''}`,
        testId: 'audit-row',
      }}
      minWidth={960}
      paging={paging}
      searchPlaceholder="User, key, resource, address, field"
      searchWidth={280}
      filters={
        <>
          <FilterSelect label="Kind" every="Every kind" options={KINDS} {...paging.bind('kind')} width={170} />
          <FilterSelect
            label="Channel"
            every="Every channel"
            options={CHANNELS}
            {...paging.bind('channel')}
            width={170}
          />
          <DateTimeField label="From" {...paging.bind('from')} />
          <DateTimeField
            label="To"
            {...paging.bind('to')}
            error={since && until && since > until ? 'The end is before the start.' : undefined}
          />
          <Button
            variant="default"
            leftSection={<IconFileSpreadsheet size={16} />}
            loading={exporting}
            onClick={() => void exportCsv()}
          >
            Export CSV
          </Button>
        </>
      }
      columns={[
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
        { header: 'Details', card: 'wide', render: (entry) => <Details entry={entry} /> },
      ]}
      empty={
        paging.filtered
          ? { title: 'No entry matches the filters', hint: 'Change the search, the kind, the channel or the dates.' }
          : {
              title: 'Nothing recorded yet',
              hint:
                'Every change through the console, a token, a session or an API key is recorded here, with ' +
                'rejected keys and failed logins.',
            }
      }
    />
  );
}
