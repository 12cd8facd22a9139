import { Badge, Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable, type DataTableColumn } from '../../../components/DataTable.tsx';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useChannels, type Channel } from '../api/channels.ts';
import { useDeleteRule, useRules, type Rule } from '../api/rules.ts';
import { checkLabel, digestText, SEVERITIES } from '../model/rule-form.ts';
import { RuleFormModal } from './RuleFormModal.tsx';

const columns = (channels: Channel[]): DataTableColumn<Rule>[] => [
  {
    header: 'Rule',
    card: 'title',
    render: (r) => (
      <Text fw={600} size="sm">
        {r.name}
        {r.enabled ? '' : ' (off)'}
      </Text>
    ),
  },
  {
    header: 'Checks',
    card: 'wide',
    render: (r) =>
      r.checks.length ? (
        <Group gap={4}>
          {r.checks.map((kind) => (
            <Badge key={kind} size="sm" variant="light" color="gray">
              {checkLabel(kind)}
            </Badge>
          ))}
        </Group>
      ) : (
        <Text size="sm">Every check</Text>
      ),
  },
  {
    header: 'From severity',
    render: (r) => <Text size="sm">{SEVERITIES.find((s) => s.value === r.minSeverity)?.label}</Text>,
  },
  {
    header: 'How often',
    render: (r) => (
      <Text size="sm">
        {digestText(r.digestMinutes)}
        {r.recoveries ? ', recoveries too' : ''}
      </Text>
    ),
  },
  {
    header: 'Sends to',
    render: (r) => <Text size="sm">{channels.find((c) => c.id === r.channelId)?.name ?? '—'}</Text>,
  },
];

/** The rules: which checks go to which channel, from which severity, how often. */
export function RulesTable() {
  const rules = useRules();
  const channels = useChannels().data ?? [];
  const remove = useDeleteRule();
  const deleting = useDialogTarget<Rule>();
  const [editing, setEditing] = useState<Rule | undefined>();
  const [formOpened, form] = useDisclosure(false);
  const openForm = (rule?: Rule) => {
    setEditing(rule);
    form.open();
  };
  return (
    <>
      <Group justify="flex-end" mb="md">
        <Button leftSection={<IconPlus size={16} />} onClick={() => openForm()} disabled={!channels.length}>
          New rule
        </Button>
      </Group>
      <DataTable
        label="Notification rules"
        noun="rules"
        query={rules}
        columns={columns(channels)}
        row={{
          label: (r) => r.name,
          testId: 'rule-row',
          actions: (r) => [
            { label: 'Edit', icon: <IconPencil size={16} />, onClick: () => openForm(r) },
            { label: 'Delete', icon: <IconTrash size={16} />, onClick: () => deleting.open(r), color: 'red' },
          ],
        }}
        frame={{ minWidth: 760 }}
        empty={{ title: 'No rules', hint: 'Without a rule nothing is sent. Add a channel first, then a rule.' }}
      />
      <RuleFormModal opened={formOpened} onClose={form.close} rule={editing} channels={channels} />
      <ConfirmDialog
        dialog={deleting}
        title={(r) => `Delete rule ${r.name}?`}
        message={() => 'Its checks are no longer sent to its channel.'}
        confirmLabel="Delete rule"
        loading={remove.isPending}
        onConfirm={(r) => remove.mutateAsync(r.id)}
      />
    </>
  );
}
