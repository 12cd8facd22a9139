import { Button, Collapse, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { formatDateTime, plural } from '../../../lib/format.ts';
import { fieldLabel, valueText } from '../api/audit-values.ts';
import type { AuditChange, AuditEntry } from '../api/get-audit-log.ts';

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

/** "1,234 attempts": how often a refused request was repeated. */
export const attempts = (count: number) => `${count.toLocaleString('en-US')} attempts`;

/** The row's details: the reason of a rejection, or a button that expands the changed fields. */
export function AuditDetails({ entry }: { entry: AuditEntry }) {
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
  if (entry.status >= 400)
    return (
      <Text size="sm" data-testid="audit-refusal">
        Refused: {entry.reason ?? `the server answered HTTP ${entry.status}`}
      </Text>
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
