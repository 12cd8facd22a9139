import { Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { FormModal } from '../../../components/FormModal.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { quickFilter, useSaveNetworkFilter } from '../api/save-filter.ts';

/** Blocks an address or network: a filter whose deny entry every bouncer receives as a ban. */
export function BlockNetworkModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const save = useSaveNetworkFilter();
  const [network, setNetwork] = useState('');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (opened) {
      setNetwork('');
      setReason('');
      setTouched(false);
      save.reset();
    }
  }, [opened]);
  const errors = fieldErrors(save.error, ['permit', 'deny', 'network', 'subnet', 'description'] as const);
  const error =
    (touched && !network.trim() ? 'Enter the address or network to block.' : null) ??
    errors.byField.deny ??
    errors.byField.permit ??
    errors.byField.network ??
    errors.byField.subnet;

  const submit = () => {
    setTouched(true);
    const value = network.trim();
    if (!value) return;
    save.mutate(
      { input: quickFilter({ permit: value, deny: value, description: reason.trim() || `Blocked ${value}` }, false) },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            title: 'Network blocked',
            message: `Bouncers block ${value} on their next poll.`,
          });
          onClose();
        },
      },
    );
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Block a network"
      onSubmit={submit}
      submitLabel="Block"
      color="red"
      loading={save.isPending}
      errors={errors.other}
    >
      <Text size="sm" c="dimmed">
        Every bouncer polling this server drops traffic from it (scenario pbx/manual) until you delete the entry.
      </Text>
      <TextInput
        label="Address or network"
        placeholder="203.0.113.0/24"
        required
        data-autofocus
        value={network}
        onChange={(e) => {
          if (save.error) save.reset();
          setNetwork(e.currentTarget.value);
        }}
        error={error}
      />
      <TextInput
        label="Reason"
        placeholder="Scanner seen on SIP"
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        error={errors.byField.description}
      />
    </FormModal>
  );
}
