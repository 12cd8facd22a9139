import { PasswordInput, SimpleGrid, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { FormModal } from '../../../components/FormModal.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useFormValues } from '../../../lib/use-form-values.ts';
import type { Extension } from '../api/get-extensions.ts';
import { useSaveExtension, type ExtensionInput } from '../api/save-extension.ts';

const FIELDS = ['number', 'username', 'callerid', 'secret'] as const;

/**
 * Adds an extension, or edits one (`extension` set): the server's v3 validation messages show under
 * the field they name, and nothing is stored until it accepts.
 */
export function ExtensionFormModal({
  opened,
  onClose,
  extension,
}: {
  opened: boolean;
  onClose: () => void;
  extension?: Extension;
}) {
  const save = useSaveExtension();
  const { values, setValues, text } = useFormValues<ExtensionInput>({
    number: '',
    username: '',
    callerid: '',
    secret: '',
  });
  useEffect(() => {
    if (!opened) return;
    setValues({
      number: extension?.number ?? '',
      username: extension?.username ?? '',
      callerid: extension?.callerid ?? '',
      secret: '',
    });
    save.reset();
  }, [opened, extension]);
  const errors = fieldErrors(save.error, FIELDS);

  const submit = () => {
    save.mutate(
      {
        input: { ...values, number: values.number.trim(), username: values.username.trim() },
        existing: extension?.number,
      },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            title: extension ? 'Extension saved' : 'Extension added',
            message: `${values.number} ${values.username}`,
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
      title={extension ? `Edit extension ${extension.number}` : 'New extension'}
      onSubmit={submit}
      submitLabel={extension ? 'Save extension' : 'Add extension'}
      loading={save.isPending}
      errors={errors.other}
    >
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput
          label="Number"
          description="2 to 8 digits"
          placeholder="201"
          required
          disabled={Boolean(extension)}
          data-autofocus
          inputMode="numeric"
          {...text('number')}
          error={errors.byField.number}
        />
        <TextInput label="Name" placeholder="Alice" required {...text('username')} error={errors.byField.username} />
      </SimpleGrid>
      <TextInput
        label="Caller ID"
        description="Shown on outgoing calls; optional"
        {...text('callerid')}
        error={errors.byField.callerid}
      />
      <PasswordInput
        label="SIP password"
        description={
          extension
            ? 'Leave empty to keep the stored password. 8 to 64 characters.'
            : '8 to 64 characters; the phone registers with it.'
        }
        required={!extension}
        autoComplete="new-password"
        {...text('secret')}
        error={errors.byField.secret}
      />
    </FormModal>
  );
}
