import { Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBan, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/DataTable.tsx';
import { OptionalText } from '../../../components/OptionalText.tsx';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useNetworkFilters } from '../api/get-filters.ts';
import { CATEGORY_NAMES, FILTER_CATEGORIES, type NetworkFilter } from '../api/types.ts';
import { BlockNetworkModal } from './BlockNetworkModal.tsx';
import { DeleteFilterDialog, type KeyBinding } from './DeleteFilterDialog.tsx';
import { FilterFormModal } from './FilterFormModal.tsx';

const denyEntries = (deny: string) =>
  (deny ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d && d !== '0.0.0.0/0' && d !== '::/0');

/** The table's columns; "Used by" names the API keys bound to each filter (supplied by the app). */
const columns = (binding?: KeyBinding): DataTableColumn<NetworkFilter>[] => [
  {
    header: 'Network',
    render: (f) => (
      <Text fw={600} ff="monospace" size="sm">
        {f.permit}
      </Text>
    ),
    card: 'title',
  },
  { header: 'Description', render: (f) => <OptionalText value={f.description} /> },
  {
    header: 'Services from this network',
    card: 'wide',
    // Worded like a firewall rule page: per service, allowed or blocked from this network.
    render: (f) => (
      <Group gap={4} wrap="wrap" role="list" aria-label={`Services from ${f.permit}`}>
        {FILTER_CATEGORIES.map((c) => {
          const allowed = f.rules?.[c] !== 'block';
          const effect = `${CATEGORY_NAMES[c]} from ${f.permit}: ${allowed ? 'allowed' : 'blocked'}`;
          return (
            <Tooltip key={c} label={effect}>
              <Badge
                role="listitem"
                size="sm"
                variant={allowed ? 'light' : 'filled'}
                color={allowed ? 'teal' : 'red'}
                aria-label={effect}
              >
                {c} {allowed ? 'allow' : 'block'}
              </Badge>
            </Tooltip>
          );
        })}
      </Group>
    ),
  },
  {
    header: 'Used by',
    render: (f) => {
      const keys = binding?.usedBy(String(f.id)) ?? [];
      return keys.length ? (
        <Text size="sm" data-testid="filter-used-by-cell">
          {keys.map((k) => k.description).join(', ')}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          No key
        </Text>
      );
    },
  },
  {
    header: 'Blocked for every bouncer',
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
        {f.newer_block_ip && (
          <Badge size="sm" variant="outline" color="blue">
            Trusted
          </Badge>
        )}
        {f.local_network && (
          <Badge size="sm" variant="outline" color="gray">
            Local
          </Badge>
        )}
        {!f.newer_block_ip && !f.local_network && (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Group>
    ),
  },
];

/** Network filters: who may reach which service, trusted networks, and blocked networks. */
export function NetworkFiltersTable({ binding }: { binding?: KeyBinding }) {
  const filters = useNetworkFilters();
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
        row={{
          label: (f) => f.permit,
          testId: 'filter-row',
          actions: (f) => [
            { label: 'Edit', icon: <IconPencil size={16} />, onClick: () => openForm(f) },
            { label: 'Delete', icon: <IconTrash size={16} />, onClick: () => deleting.open(f), color: 'red' },
          ],
        }}
        columns={columns(binding)}
        frame={{ minWidth: 900 }}
        search={{
          label: 'Search network filters',
          placeholder: 'Search network, description, key',
          text: (f) =>
            `${f.permit} ${f.description ?? ''} ${f.deny ?? ''} ` +
            `${(binding?.usedBy(String(f.id)) ?? []).map((k) => k.description).join(' ')}`,
        }}
        empty={{
          title: 'No network filters',
          hint:
            'Every address may reach every service. Add a filter to trust your LAN, to bind a bouncer ' +
            'key to its host, or block a network.',
        }}
      />
      <FilterFormModal opened={formOpened} onClose={form.close} filter={editing} />
      <BlockNetworkModal opened={blockOpened} onClose={block.close} />
      <DeleteFilterDialog dialog={deleting} filters={filters.data ?? []} binding={binding} />
    </>
  );
}
