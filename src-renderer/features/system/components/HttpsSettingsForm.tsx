import { Alert, Button, Group, NumberInput, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useCertificate } from '../api/get-certificate.ts';
import { useHttpsSettings, useUpdateHttpsSettings, type HttpsSettings } from '../api/https-settings.ts';

/** HTTPS listener on or off, its port, and the certificate fingerprint bouncers can pin. */
export function HttpsSettingsForm() {
  const settings = useHttpsSettings();
  const certificate = useCertificate();
  const save = useUpdateHttpsSettings();
  const [values, setValues] = useState<HttpsSettings | null>(null);
  useEffect(() => {
    if (settings.data) setValues({ enabled: Boolean(settings.data.enabled), port: Number(settings.data.port) || 8443 });
  }, [settings.data]);
  const errors = fieldErrors(save.error, ['enabled', 'port'] as const);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    save.mutate(values, {
      onSuccess: () => notifications.show({ color: 'teal', title: 'HTTPS settings saved', message: 'If the listener did not change at once, it will at the next start.' }),
    });
  };

  return (
    <QueryState query={settings} label="HTTPS settings">
      {values && (
        <form onSubmit={submit} noValidate aria-label="HTTPS">
          <Stack maw={560}>
            <Switch
              label="Serve HTTPS"
              description="A self-signed certificate is created on first use. Bouncers on other hosts should use the https api_url."
              checked={values.enabled}
              onChange={(e) => setValues({ ...values, enabled: e.currentTarget.checked })}
            />
            <NumberInput
              label="HTTPS port"
              min={1}
              max={65535}
              maw={200}
              value={values.port}
              disabled={!values.enabled}
              onChange={(v) => setValues({ ...values, port: Number(v) })}
              error={errors.byField.port}
            />
            {errors.other.length > 0 && <Alert color="red" variant="light" role="alert">{errors.other.join(' ')}</Alert>}
            {certificate.data?.fingerprint256 && (
              <Stack gap={4}>
                <Group gap={6}>
                  <IconLock size={16} aria-hidden />
                  <Text size="sm" fw={600}>
                    Certificate SHA-256 fingerprint
                  </Text>
                </Group>
                <CopyBlock value={certificate.data.fingerprint256} label="fingerprint" />
                <Text size="xs" c="dimmed">
                  {certificate.data.subject ? `${certificate.data.subject} · ` : ''}valid until {formatDateTime(certificate.data.validTo)}
                </Text>
              </Stack>
            )}
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save HTTPS settings
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </QueryState>
  );
}
