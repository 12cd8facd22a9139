import { Alert, Badge, Button, Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconLock } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useCertificate } from '../api/get-certificate.ts';
import { useHttpsSettings, useUpdateHttpsSettings, type HttpsSettings } from '../api/https-settings.ts';

const FIELDS = ['enabled', 'port', 'certificatePath', 'privateKeyPath'] as const;

/** What the HTTPS listener is doing now, and the certificate fingerprint bouncers can pin. */
function HttpsRuntime({ enabledInSettings }: { enabledInSettings: boolean }) {
  const certificate = useCertificate();
  const c = certificate.data;
  if (!c) return null;
  return (
    <Stack gap={6} data-testid="https-runtime">
      <Group gap="xs">
        <IconLock size={16} aria-hidden />
        <Text size="sm" fw={600}>
          HTTPS listener
        </Text>
        <Badge variant="light" color={c.enabled ? 'teal' : 'gray'}>
          {c.enabled ? `Running on port ${c.port}` : 'Not running'}
        </Badge>
      </Group>
      {c.enabled && !enabledInSettings && (
        <Text size="xs" c="dimmed">
          Started from PBX_HTTPS_PORT or --https-port, which override the settings below.
        </Text>
      )}
      {c.error && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The HTTPS listener did not start">
          {c.error} Fix the port or the certificate files below, save, and restart PBX Console.
        </Alert>
      )}
      {c.enabled && c.fingerprint256 && (
        <>
          <Text size="sm">Certificate SHA-256 fingerprint{c.source === 'self-signed' ? ' (self-signed)' : ''}:</Text>
          <CopyBlock value={c.fingerprint256} label="fingerprint" />
          <Text size="xs" c="dimmed">
            {c.subject ? `${c.subject} · ` : ''}valid until {formatDateTime(c.validTo)}. Compare it with what the bouncer host sees before trusting the
            certificate.
          </Text>
        </>
      )}
    </Stack>
  );
}

/** HTTPS listener on or off, its port and certificate files (applied at the next start), with the fingerprint. */
export function HttpsSettingsForm() {
  const settings = useHttpsSettings();
  const save = useUpdateHttpsSettings();
  const [values, setValues] = useState<HttpsSettings | null>(null);
  useEffect(() => {
    const d = settings.data;
    if (d) setValues({ enabled: Boolean(d.enabled), port: Number(d.port) || 8443, certificatePath: d.certificatePath ?? '', privateKeyPath: d.privateKeyPath ?? '' });
  }, [settings.data]);
  const errors = fieldErrors(save.error, FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    save.mutate(values, {
      onSuccess: () => notifications.show({ color: 'teal', title: 'HTTPS settings saved', message: 'Restart PBX Console to apply them.' }),
    });
  };

  return (
    <QueryState query={settings} label="HTTPS settings">
      {values && (
        <Stack maw={640}>
          <HttpsRuntime enabledInSettings={Boolean(settings.data?.enabled)} />
          <form onSubmit={submit} noValidate aria-label="HTTPS">
            <Stack>
              <Switch
                label="Serve HTTPS"
                description="A self-signed certificate is created on first use unless you give your own. Bouncers on other hosts should then use the https api_url."
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
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Certificate file (optional)"
                  placeholder="/etc/ssl/pbx/fullchain.pem"
                  disabled={!values.enabled}
                  value={values.certificatePath}
                  onChange={(e) => setValues({ ...values, certificatePath: e.currentTarget.value })}
                  error={errors.byField.certificatePath}
                />
                <TextInput
                  label="Private key file (optional)"
                  placeholder="/etc/ssl/pbx/privkey.pem"
                  disabled={!values.enabled}
                  value={values.privateKeyPath}
                  onChange={(e) => setValues({ ...values, privateKeyPath: e.currentTarget.value })}
                  error={errors.byField.privateKeyPath}
                />
              </SimpleGrid>
              {errors.other.length > 0 && (
                <Alert color="red" variant="light" role="alert">
                  {errors.other.join(' ')}
                </Alert>
              )}
              <Group>
                <Button type="submit" loading={save.isPending}>
                  Save HTTPS settings
                </Button>
              </Group>
            </Stack>
          </form>
        </Stack>
      )}
    </QueryState>
  );
}
