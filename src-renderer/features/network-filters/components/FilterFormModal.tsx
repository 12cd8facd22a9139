import { Checkbox, Fieldset, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { FormModal } from '../../../components/FormModal.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useFormValues } from '../../../lib/use-form-values.ts';
import { useSaveNetworkFilter } from '../api/save-filter.ts';
import {
  CATEGORY_HINTS,
  CATEGORY_NAMES,
  emptyFilterInput,
  FILTER_CATEGORIES,
  toInput,
  type NetworkFilter,
  type NetworkFilterInput,
} from '../api/types.ts';

const FIELDS = [
  'permit',
  'network',
  'subnet',
  'deny',
  'description',
  'newer_block_ip',
  'local_network',
  'currentRules',
] as const;

/** Create or edit one network filter; the server's 422 messages appear under the fields they name. */
export function FilterFormModal({
  opened,
  onClose,
  filter,
}: {
  opened: boolean;
  onClose: () => void;
  filter?: NetworkFilter;
}) {
  const save = useSaveNetworkFilter();
  // Editing clears the server's verdict on the previous attempt.
  const { values, setValues, edit, text, check } = useFormValues<NetworkFilterInput>(emptyFilterInput, () => {
    if (save.error) save.reset();
  });
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (opened) {
      setValues(filter ? toInput(filter) : emptyFilterInput());
      setMissing(false);
      save.reset();
    }
  }, [opened, filter]);
  const errors = fieldErrors(save.error, FIELDS);
  const permitError =
    (missing && !values.permit.trim() ? 'Enter an address or a network, e.g. 192.0.2.10 or 192.0.2.0/24.' : null) ??
    errors.byField.permit ??
    errors.byField.network ??
    errors.byField.subnet;

  const submit = () => {
    setMissing(true);
    if (!values.permit.trim()) return;
    save.mutate(
      { id: filter?.id, input: { ...values, permit: values.permit.trim(), deny: values.deny.trim() || '0.0.0.0/0' } },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            title: filter ? 'Filter saved' : 'Filter created',
            message: values.permit,
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
      title={filter ? `Edit filter ${filter.permit}` : 'New network filter'}
      size="lg"
      onSubmit={submit}
      submitLabel={filter ? 'Save filter' : 'Create filter'}
      loading={save.isPending}
      errors={errors.other}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Network"
          description="An address or a CIDR network this filter applies to"
          placeholder="192.0.2.0/24"
          required
          data-autofocus
          {...text('permit')}
          error={permitError}
        />
        <TextInput
          label="Description"
          placeholder="Office LAN"
          {...text('description')}
          error={errors.byField.description}
        />
      </SimpleGrid>
      <TextInput
        label="Deny"
        description={
          'Addresses or networks every bouncer blocks on all services, separated by commas. Keep ' +
          "0.0.0.0/0 alone to block nothing: it is only the reference PBX's placeholder for " +
          '“everything else”.'
        }
        {...text('deny')}
        error={errors.byField.deny}
      />
      <Fieldset legend={`Services from ${values.permit.trim() || 'this network'}`} variant="filled">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {FILTER_CATEGORIES.map((category) => (
            <Checkbox
              key={category}
              label={`Allow ${category}`}
              // The rule's effect in words, as a firewall rule page states it.
              description={
                `${CATEGORY_HINTS[category]}. ${CATEGORY_NAMES[category]} from ` +
                `${values.permit.trim() || 'this network'}: ` +
                `${values.currentRules[category] ? 'allowed' : 'blocked'}.`
              }
              checked={values.currentRules[category]}
              onChange={(e) => edit({ currentRules: { ...values.currentRules, [category]: e.currentTarget.checked } })}
            />
          ))}
        </SimpleGrid>
      </Fieldset>
      <Switch
        label="Trusted: never ban addresses of this network"
        description="They are also published to bouncers in the whitelist."
        {...check('newer_block_ip')}
      />
      <Switch
        label="Local network"
        description="Phones on this network are treated as local (no NAT handling)."
        {...check('local_network')}
      />
    </FormModal>
  );
}
