import { Badge, Button, Card, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBan, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/ConfirmAction.tsx';
import { RowActionsMenu } from '../../../components/RowActionsMenu.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { useDeleteNetworkFilter } from '../api/delete-filter.ts';
import { useNetworkFilters } from '../api/get-filters.ts';
import { FILTER_CATEGORIES, isSet, type NetworkFilter } from '../api/types.ts';
import { BlockNetworkModal } from './BlockNetworkModal.tsx';
import { FilterFormModal } from './FilterFormModal.tsx';

const denyEntries = (deny: string) => (deny ?? '').split(',').map((d) => d.trim()).filter((d) => d && d !== '0.0.0.0/0' && d !== '::/0');

function FilterActions({ filter, onEdit }: { filter: NetworkFilter; onEdit: () => void }) {
  const remove = useDeleteNetworkFilter();
  return (
    <ConfirmAction
      title={`Delete the filter for ${filter.permit}?`}
      message={
        denyEntries(filter.deny).length
          ? `Bouncers stop blocking ${denyEntries(filter.deny).join(', ')} on their next poll. API keys bound to this filter lose their binding.`
          : 'Access rules for this network return to the defaults. API keys bound to this filter lose their binding.'
      }
      confirmLabel="Delete filter"
      loading={remove.isPending}
      onConfirm={() => remove.mutateAsync(filter.id).then(() => notifications.show({ color: 'teal', title: 'Filter deleted', message: filter.permit }))}
      trigger={(open) => (
        <RowActionsMenu
          rowLabel={filter.permit}
          actions={[
            { label: 'Edit', icon: <IconPencil size={16} />, onClick: onEdit },
            { label: 'Delete', icon: <IconTrash size={16} />, onClick: open, color: 'red' },
          ]}
        />
      )}
    />
  );
}

/** Network filters: who may reach which service, trusted networks, and blocked networks. */
export function NetworkFiltersTable() {
  const filters = useNetworkFilters();
  const [editing, setEditing] = useState<NetworkFilter | undefined>();
  const [formOpened, form] = useDisclosure(false);
  const [blockOpened, block] = useDisclosure(false);
  const list = filters.data ?? [];
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
      <Card withBorder radius="md" padding="lg">
        <QueryState
          query={filters}
          label="network filters"
          isEmpty={list.length === 0}
          empty={{
            title: 'No network filters',
            hint: 'Every address may reach every service. Add a filter to trust your LAN, to bind a bouncer key to its host, or block a network.',
          }}
        >
          <Table.ScrollContainer minWidth={760}>
            <Table highlightOnHover verticalSpacing="sm" aria-label="Network filters">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Network</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th>Access</Table.Th>
                  <Table.Th>Blocked</Table.Th>
                  <Table.Th>Flags</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((f) => (
                  <Table.Tr key={String(f.id)} data-testid="filter-row">
                    <Table.Td ff="monospace" fw={600}>
                      {f.permit}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={f.description ? undefined : 'dimmed'}>
                        {f.description || '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
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
                    </Table.Td>
                    <Table.Td ff="monospace">
                      {denyEntries(f.deny).length ? (
                        <Text size="sm" c="red" fw={600}>
                          {denyEntries(f.deny).join(', ')}
                        </Text>
                      ) : (
                        <Text size="sm" c="dimmed">
                          —
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
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
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right">
                      <FilterActions filter={f} onEdit={() => openForm(f)} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </QueryState>
      </Card>
      <FilterFormModal opened={formOpened} onClose={form.close} filter={editing} />
      <BlockNetworkModal opened={blockOpened} onClose={block.close} />
    </>
  );
}
