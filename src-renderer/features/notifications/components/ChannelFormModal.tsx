import { Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { FormModal } from '../../../components/FormModal.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useFormValues } from '../../../lib/use-form-values.ts';
import { useSaveChannel, type Channel } from '../api/channels.ts';
import {
  CHANNEL_FIELDS,
  CHANNEL_TYPES,
  emptyChannelInput,
  toChannelBody,
  toChannelInput,
  type ChannelInput,
  type ChannelType,
} from '../model/channel-form.ts';
import { ChannelTypeFields } from './ChannelTypeFields.tsx';

const DEFAULT_PORTS: Partial<Record<ChannelType, string>> = { email: '587', syslog: '514' };

/** Create or edit a channel; the server's 422 messages appear under the fields they name. */
export function ChannelFormModal({
  opened,
  onClose,
  channel,
}: {
  opened: boolean;
  onClose: () => void;
  channel?: Channel;
}) {
  const save = useSaveChannel();
  const { values, setValues, edit, text } = useFormValues<ChannelInput>(emptyChannelInput, () => {
    if (save.error) save.reset();
  });
  useEffect(() => {
    if (opened) {
      setValues(channel ? toChannelInput(channel) : emptyChannelInput());
      save.reset();
    }
  }, [opened, channel]);
  const errors = fieldErrors(save.error, CHANNEL_FIELDS);

  const submit = () =>
    save.mutate(
      { id: channel?.id, body: toChannelBody(values) },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            title: channel ? 'Channel saved' : 'Channel added',
            message: values.name,
          });
          onClose();
        },
      },
    );

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={channel ? `Edit channel ${channel.name}` : 'New notification channel'}
      size="lg"
      onSubmit={submit}
      submitLabel={channel ? 'Save channel' : 'Add channel'}
      loading={save.isPending}
      errors={errors.other}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Name"
          placeholder="On-call e-mail"
          required
          data-autofocus
          {...text('name')}
          error={errors.byField.name}
        />
        <Select
          label="Sends by"
          data={CHANNEL_TYPES.map((t) => ({ value: t.value, label: t.label }))}
          value={values.type}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          description={CHANNEL_TYPES.find((t) => t.value === values.type)?.description}
          onChange={(type) =>
            type && edit({ type: type as ChannelType, port: DEFAULT_PORTS[type as ChannelType] ?? values.port })
          }
          error={errors.byField.type}
        />
      </SimpleGrid>
      <ChannelTypeFields
        values={values}
        text={text}
        edit={edit}
        errors={errors.byField}
        hasSecret={channel?.hasSecret ?? false}
      />
      <Switch
        label="Enabled: rules send to this channel"
        checked={values.enabled}
        onChange={(e) => edit({ enabled: e.currentTarget.checked })}
      />
    </FormModal>
  );
}
