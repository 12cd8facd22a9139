import { Alert, Button, Group, NumberInput, PasswordInput, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState, type FormEvent } from 'react';
import { QueryState } from '../../../components/QueryState.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useAmiSettings, useUpdateAmiSettings, type AmiSettings } from '../api/ami-settings.ts';

const FIELDS = ['enabled', 'host', 'port', 'username', 'secret'] as const;

/** The Asterisk manager connection: host, port, user and a write-only secret. */
export function AmiSettingsForm() {
  const settings = useAmiSettings();
  const save = useUpdateAmiSettings();
  const [values, setValues] = useState<AmiSettings | null>(null);
  useEffect(() => {
    if (settings.data) setValues({ enabled: Boolean(settings.data.enabled), host: settings.data.host ?? '127.0.0.1', port: Number(settings.data.port) || 5038, username: settings.data.username ?? '', secret: '' });
  }, [settings.data]);
  const errors = fieldErrors(save.error, FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    const { secret, ...rest } = values;
    save.mutate(secret ? values : rest, {
      onSuccess: () => {
        notifications.show({ color: 'teal', title: 'AMI settings saved', message: 'The connection restarts with them.' });
        setValues((v) => (v ? { ...v, secret: '' } : v));
      },
    });
  };

  return (
    <QueryState query={settings} label="AMI settings">
      {values && (
        <form onSubmit={submit} noValidate aria-label="AMI connection">
          <Stack maw={560}>
            <Switch label="Connect to the Asterisk manager" checked={values.enabled} onChange={(e) => setValues({ ...values, enabled: e.currentTarget.checked })} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Host" required value={values.host} onChange={(e) => setValues({ ...values, host: e.currentTarget.value })} error={errors.byField.host} />
              <NumberInput label="Port" min={1} max={65535} value={values.port} onChange={(v) => setValues({ ...values, port: Number(v) })} error={errors.byField.port} />
              <TextInput label="User" autoComplete="off" value={values.username} onChange={(e) => setValues({ ...values, username: e.currentTarget.value })} error={errors.byField.username} />
              <PasswordInput
                label="Secret"
                autoComplete="new-password"
                placeholder="unchanged"
                description="Leave empty to keep the stored secret."
                value={values.secret ?? ''}
                onChange={(e) => setValues({ ...values, secret: e.currentTarget.value })}
                error={errors.byField.secret}
              />
            </SimpleGrid>
            {errors.other.length > 0 && <Alert color="red" variant="light" role="alert">{errors.other.join(' ')}</Alert>}
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save AMI connection
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </QueryState>
  );
}
