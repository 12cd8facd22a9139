import { SimpleGrid, Switch, TextInput } from '@mantine/core';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { SettingsForm } from '../../../components/SettingsForm.tsx';
import { SecretInput } from '../../../components/SecretInput.tsx';
import { useSettingsForm } from '../../../lib/use-settings-form.ts';
import { amiSettings, type AmiSettings } from '../api/ami-settings.ts';

const FIELDS = ['enabled', 'host', 'port', 'username', 'secret'] as const;

/** The Asterisk manager connection: host, port, user and a write-only secret. */
export function AmiSettingsForm() {
  const form = useSettingsForm(amiSettings, {
    // The secret is never read back: the field starts empty, and an empty one keeps the stored secret.
    toValues: (d): AmiSettings => ({
      enabled: Boolean(d.enabled),
      host: d.host ?? '127.0.0.1',
      port: Number(d.port) || 5038,
      username: d.username ?? '',
      secret: '',
    }),
    // A pasted host often carries a space at an end; the server refuses any (422), so none is sent.
    toInput: ({ secret, host, ...rest }) => ({ ...rest, host: host.trim(), ...(secret ? { secret } : {}) }),
    fields: FIELDS,
    saved: { title: 'AMI settings saved', message: 'The connection restarts with them.' },
  });
  const { field, textField, switchField } = form;
  return (
    <SettingsForm form={form} label="AMI settings" name="AMI connection" submitLabel="Save AMI connection" maw={560}>
      {() => (
        <>
          <Switch label="Connect to the Asterisk manager" {...switchField('enabled')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Host" required {...textField('host')} />
            <BoundedNumberInput label="Port" min={1} max={65535} {...field('port')} />
            <TextInput label="User" autoComplete="off" {...textField('username')} />
            <SecretInput label="Secret" description="Leave empty to keep the stored secret." {...textField('secret')} />
          </SimpleGrid>
        </>
      )}
    </SettingsForm>
  );
}
