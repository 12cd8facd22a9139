import { Alert, List, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { FormError } from '../../../components/FormError.tsx';
import { ModalFooter } from '../../../components/ModalFooter.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import type { DialogTarget } from '../../../lib/use-dialog-target.ts';
import { useDeleteNetworkFilter } from '../api/delete-filter.ts';
import type { NetworkFilter } from '../api/types.ts';

/** An API key bound to a filter, as the app supplies it (this feature does not read keys itself). */
export interface BoundKey {
  id: string | number;
  description: string;
}

/** Where the keys of a deleted filter can go, with their labels. */
export interface KeyBinding {
  usedBy: (filterId: string) => BoundKey[];
  /** Rebinds the keys (PATCH networkfilterid), then the filter can go. */
  moveKeys: (keys: BoundKey[], to: string) => Promise<void>;
}

const denyEntries = (deny: string) =>
  (deny ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d && d !== '0.0.0.0/0' && d !== '::/0');

/**
 * Deleting a filter names the keys bound to it: they are moved to another binding first, or nothing
 * is deleted. The server refuses (409) a delete that would leave keys bound to nothing.
 */
export function DeleteFilterDialog({
  dialog,
  filters,
  binding,
}: {
  dialog: DialogTarget<NetworkFilter>;
  filters: NetworkFilter[];
  binding?: KeyBinding;
}) {
  const remove = useDeleteNetworkFilter();
  const [moveTo, setMoveTo] = useState<string | null>(null);
  const [moving, setMoving] = useState(false);
  const [problem, setProblem] = useState<string[]>([]);
  const filter = dialog.target;
  const keys = filter && binding ? binding.usedBy(String(filter.id)) : [];
  const targets = [
    { value: 'localhost', label: 'This computer only (localhost)' },
    ...filters
      .filter((f) => filter && String(f.id) !== String(filter.id))
      .map((f) => ({ value: String(f.id), label: f.description ? `${f.permit} — ${f.description}` : f.permit })),
    { value: 'none', label: 'Any address: the keys work wherever they leak to (not recommended)' },
  ];

  const close = () => {
    setMoveTo(null);
    setProblem([]);
    dialog.close();
  };

  const confirm = async () => {
    if (!filter) return;
    setProblem([]);
    if (keys.length) {
      if (!moveTo || !binding) {
        setProblem(['Choose where the keys go first, or Cancel to keep the filter.']);
        return;
      }
      setMoving(true);
      try {
        await binding.moveKeys(keys, moveTo);
      } catch (error) {
        setProblem(error instanceof ApiError ? error.messages : [String(error)]);
        return;
      } finally {
        setMoving(false);
      }
    }
    try {
      await remove.mutateAsync(filter.id);
      notifications.show({
        color: 'teal',
        title: 'Filter deleted',
        message: keys.length
          ? `${filter.permit}; ${keys.length} ${keys.length === 1 ? 'key' : 'keys'} moved`
          : filter.permit,
      });
      close();
    } catch (error) {
      setProblem(error instanceof ApiError ? error.messages : [String(error)]);
    }
  };

  const blocked = filter ? denyEntries(filter.deny) : [];
  return (
    <Modal
      opened={dialog.opened}
      onClose={close}
      title={filter ? `Delete the filter for ${filter.permit}?` : ''}
      centered
    >
      {filter && (
        <Stack>
          <Text size="sm">
            {blocked.length
              ? `Bouncers stop blocking ${blocked.join(', ')} on their next poll.`
              : 'The rules for this network are removed.'}
          </Text>
          {keys.length > 0 && (
            <Alert
              color="yellow"
              variant="light"
              title={`Used by ${keys.length} API ${keys.length === 1 ? 'key' : 'keys'}`}
              data-testid="filter-used-by"
            >
              <List size="sm" mb="xs">
                {keys.map((k) => (
                  <List.Item key={String(k.id)}>{k.description}</List.Item>
                ))}
              </List>
              <Text size="sm">
                A key bound to a deleted filter would be refused from every address. Move{' '}
                {keys.length === 1 ? 'it' : 'them'} first, or cancel.
              </Text>
            </Alert>
          )}
          {keys.length > 0 && (
            <Select
              label={`Move ${keys.length === 1 ? 'the key' : 'the keys'} to`}
              placeholder="Choose the new allowed source"
              data={targets}
              value={moveTo}
              onChange={setMoveTo}
              allowDeselect={false}
            />
          )}
          <FormError messages={problem} />
          <ModalFooter
            onCancel={close}
            submitLabel={keys.length ? `Move ${keys.length === 1 ? 'key' : 'keys'} and delete` : 'Delete filter'}
            color="red"
            loading={moving || remove.isPending}
            onConfirm={() => void confirm()}
          />
        </Stack>
      )}
    </Modal>
  );
}
