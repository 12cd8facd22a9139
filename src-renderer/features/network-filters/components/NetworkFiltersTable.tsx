import { Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBan, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable, type DataTableColumn } from '../../../components/DataTable.tsx';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useDeleteNetworkFilter } from '../api/delete-filter.ts';
import { useNetworkFilters } from '../api/get-filters.ts';
import { FILTER_CATEGORIES, isSet, type NetworkFilter } from '../api/types.ts';
import { BlockNetworkModal } from './BlockNetworkModal.tsx';
import { FilterFormModal } from './FilterFormModal.tsx';

const denyEntries = (deny: string) => (deny ?? '').split(',').map((d) => d.trim()).filter((d) => d && d !== '0.0.0.0/0' && d !== '::/0');

const COLUMNS: DataTableColumn<NetworkFilter>[] = [
  { header: 'Network', render: (f) => <Text fw={600} ff="monospace" size="sm">{f.permit}</Text>, card: 'title' },
  {
    header: 'Description',
    render: (f) => (
      <Text size="sm" c={f.description ? undefined : 'dimmed'}>
        {f.description || '—'}
      </Text>
    ),
  },
  {
    header: 'Access',
    card: 'wide',
    render: (f) => (
      <Group gap={4} wrap="nowrap">
        {FILTER_CATEGORIES.map((c) => {
          const allowed = f.rules?.[c] !== 'block';
          return (
            <Tooltip key={c} label={`${c} ${allowed ? 'allowed' : 'blocked'}`}>
              <Badge size="sm" variant={allowed ? 'light' : 'filled'} color={allowed ? 'teal' : 'red'} aria-label={`${c} ${allowed ? 'allowed' : 'blocked'}`}>
                {c}
              </Badge>
            </Tooltip>
          );
        })}
      </Group>
    ),
  },
  {
    header: 'Blocked',
    mono: true,
    render: (f) =>
      denyEntries(f.deny).length ? (
        <Text size="sm" c="red" fw={600} ff="monospace">
          {denyEntries(f.deny).join(', ')}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
  {
    header: 'Flags',
    render: (f) => (
      <Group gap={4}>
        {isSet(f.newer_block_ip) && (
          <Badge size="sm" variant="outline" color="blue">
            Trusted
          </Badge>
        )}
        {isSet(f.local_network) && (
          <Badge size="sm" variant="outline" color="gray">
            Local
          </Badge>
        )}
        {!isSet(f.newer_block_ip) && !isSet(f.local_network) && (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Group>
    ),
  },
];

/** Network filters: who may reach which service, trusted networks, and blocked networks. */
export function NetworkFiltersTable() {
  const filters = useNetworkFilters();
  const remove = useDeleteNetworkFilter();
  const [editing, setEditing] = useState<NetworkFilter | undefined>();
  const deleting = useDialogTarget<NetworkFilter>();
  const [formOpened, form] = useDisclosure(false);
  const [blockOpened, block] = useDisclosure(false);
  const openForm = (filter?: NetworkFilter) => {
    setEditing(filter);
    form.open();
  };

  return (
    <>
      <Group justify="flex-end" mb="md" gap="sm">
        <Button variant="light" color="red" leftSection={<IconBan size={16} />} onClick={block.open}>
          Block a network
        </Button>
        <Button leftSection={<IconPlus size={16} />} onClick={() => openForm()}>
          New filter
        </Button>
      </Group>
      <DataTable
        label="Network filters"
        noun="network filters"
        query={filters}
        rows={filters.data ?? []}
        rowKey={(f) => String(f.id)}
        rowLabel={(f) => f.permit}
        rowTestId="filter-row"
        columns={COLUMNS}
        minWidth={760}
        search={{ label: 'Search network filters', placeholder: 'Search network, description', text: (f) => `${f.permit} ${f.description ?? ''} ${f.deny ?? ''}` }}
        actions={(f) => [
          { label: 'Edit', icon: <IconPencil size={16} />, onClick: () => openForm(f) },
          { label: 'Delete', icon: <IconTrash size={16} />, onClick: () => deleting.open(f), color: 'red' },
        ]}
        empty={{
          title: 'No network filters',
          hint: 'Every address may reach every service. Add a filter to trust your LAN, to bind a bouncer key to its host, or block a network.',
        }}
      />
      <FilterFormModal opened={formOpened} onClose={form.close} filter={editing} />
      <BlockNetworkModal opened={blockOpened} onClose={block.close} />
      <ConfirmDialog
        dialog={deleting}
        title={(filter) => `Delete the filter for ${filter.permit}?`}
        message={(filter) =>
          denyEntries(filter.deny).length
            ? `Bouncers stop blocking ${denyEntries(filter.deny).join(', ')} on their next poll. API keys bound to this filter lose their binding.`
            : 'Access rules for this network return to the defaults. API keys bound to this filter lose their binding.'
        }
        confirmLabel="Delete filter"
        loading={remove.isPending}
        onConfirm={(filter) => remove.mutateAsync(filter.id).then(() => notifications.show({ color: 'teal', title: 'Filter deleted', message: filter.permit }))}
      />
    </>
  );
}
