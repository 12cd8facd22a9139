import { Alert, Badge, Group, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconLock } from '@tabler/icons-react';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { SettingsForm } from '../../../components/SettingsForm.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useSettingsForm } from '../../../lib/use-settings-form.ts';
import { useCertificate } from '../api/get-certificate.ts';
import { httpsSettings, type HttpsSettings } from '../api/https-settings.ts';

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
  const form = useSettingsForm(httpsSettings, {
    toValues: (d): HttpsSettings => ({ enabled: Boolean(d.enabled), port: Number(d.port) || 8443, certificatePath: d.certificatePath ?? '', privateKeyPath: d.privateKeyPath ?? '' }),
    fields: FIELDS,
    saved: { title: 'HTTPS settings saved', message: 'Restart PBX Console to apply them.' },
  });
  const { errors, set } = form;
  return (
    <Stack maw={640}>
      <HttpsRuntime enabledInSettings={Boolean(form.query.data?.enabled)} />
      <SettingsForm form={form} label="HTTPS settings" name="HTTPS" submitLabel="Save HTTPS settings">
        {(values) => (
          <>
            <Switch
              label="Serve HTTPS"
              description="A self-signed certificate is created on first use unless you give your own. Bouncers on other hosts should then use the https api_url."
              checked={values.enabled}
              onChange={(e) => set('enabled', e.currentTarget.checked)}
            />
            <BoundedNumberInput
              label="HTTPS port"
              min={1}
              max={65535}
              maw={200}
              value={values.port}
              disabled={!values.enabled}
              onChange={(v) => set('port', v)}
              error={errors.byField.port}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Certificate file (optional)"
                placeholder="/etc/ssl/pbx/fullchain.pem"
                disabled={!values.enabled}
                value={values.certificatePath}
                onChange={(e) => set('certificatePath', e.currentTarget.value)}
                error={errors.byField.certificatePath}
              />
              <TextInput
                label="Private key file (optional)"
                placeholder="/etc/ssl/pbx/privkey.pem"
                disabled={!values.enabled}
                value={values.privateKeyPath}
                onChange={(e) => set('privateKeyPath', e.currentTarget.value)}
                error={errors.byField.privateKeyPath}
              />
            </SimpleGrid>
          </>
        )}
      </SettingsForm>
    </Stack>
  );
}
