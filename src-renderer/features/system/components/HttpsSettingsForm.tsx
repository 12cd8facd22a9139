import { Badge, Button, Group, Loader, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { SettingsForm } from '../../../components/SettingsForm.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useSettingsForm } from '../../../lib/use-settings-form.ts';
import { useCertificate } from '../api/get-certificate.ts';
import { systemInfoKey } from '../api/get-system-info.ts';
import { httpsSettings, useRenewCertificate, type HttpsSettings } from '../api/https-settings.ts';
import { ProblemAlert } from '../../../components/ProblemAlert.tsx';

const FIELDS = ['enabled', 'port', 'certificatePath', 'privateKeyPath'] as const;

/** What the HTTPS listener is doing now, and the certificate fingerprint bouncers can pin. */
function HttpsRuntime({ enabledInSettings }: { enabledInSettings: boolean }) {
  const certificate = useCertificate();
  const queryClient = useQueryClient();
  const renew = useRenewCertificate();
  const confirm = useDialogTarget<'self-signed' | 'configured'>();
  const c = certificate.data;
  const pending = c?.pending === true;
  // Once a change is live, the bouncer URLs (https or http, which port) follow it.
  useEffect(() => {
    if (!pending) void queryClient.invalidateQueries({ queryKey: systemInfoKey });
  }, [pending, queryClient]);
  if (!c) return null;
  return (
    <Stack gap={6} data-testid="https-runtime" aria-live="polite" aria-busy={pending}>
      <Group gap="xs">
        <IconLock size={16} aria-hidden />
        <Text size="sm" fw={600}>
          HTTPS listener
        </Text>
        {pending ? (
          <Badge variant="light" color="yellow" leftSection={<Loader size={10} color="yellow" aria-hidden />}>
            Applying…
          </Badge>
        ) : (
          <Badge variant="light" color={c.enabled ? 'teal' : 'gray'}>
            {c.enabled ? `Running on port ${c.port}` : 'Not running'}
          </Badge>
        )}
      </Group>
      {c.enabled && !enabledInSettings && (
        <Text size="xs" c="dimmed">
          Started from PBX_HTTPS_PORT or --https-port, which override the switch and port below.
        </Text>
      )}
      {c.error && !pending && (
        <ProblemAlert title="The last HTTPS change was not applied">
          {c.error} Fix the port or the certificate files below and save again.
        </ProblemAlert>
      )}
      {c.enabled && c.fingerprint256 && (
        <>
          <Text size="sm">Certificate SHA-256 fingerprint{c.source === 'self-signed' ? ' (self-signed)' : ''}:</Text>
          <CopyBlock value={c.fingerprint256} label="fingerprint" />
          <Text size="xs" c="dimmed">
            {c.subject ? `${c.subject} · ` : ''}valid until {formatDateTime(c.validTo)}. Compare it with what the
            bouncer host sees before trusting the certificate.
          </Text>
          <Group>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconRefresh size={14} aria-hidden />}
              disabled={pending}
              onClick={() => confirm.open(c.source ?? 'self-signed')}
            >
              {c.source === 'configured' ? 'Reload certificate files' : 'New self-signed certificate'}
            </Button>
          </Group>
        </>
      )}
      <ConfirmDialog
        dialog={confirm}
        title={(source) =>
          source === 'configured' ? 'Reload the certificate files?' : 'Replace the self-signed certificate?'
        }
        message={(source) =>
          source === 'configured'
            ? 'The listener reads the certificate and key files again (after a renewal on disk) and ' +
              'serves them to new connections at once. Bouncers that pinned the old certificate need the ' +
              'new one.'
            : 'A new key pair and certificate are generated and served to new connections at once. ' +
              'Bouncers that pinned the old certificate (ca_cert_path) stop connecting until they get the ' +
              'new one from their key dialog.'
        }
        confirmLabel={'Re-key now'}
        loading={renew.isPending}
        onConfirm={() =>
          renew.mutateAsync().then(() =>
            notifications.show({
              color: 'teal',
              title: 'Re-keying HTTPS',
              message: 'The new certificate is being put in place; its fingerprint shows here once live.',
            }),
          )
        }
      />
    </Stack>
  );
}

/** HTTPS listener on or off, its port and certificate files (applied live), with the fingerprint. */
export function HttpsSettingsForm() {
  const form = useSettingsForm(httpsSettings, {
    toValues: (d): HttpsSettings => ({
      enabled: Boolean(d.enabled),
      port: Number(d.port) || 8443,
      certificatePath: d.certificatePath ?? '',
      privateKeyPath: d.privateKeyPath ?? '',
    }),
    fields: FIELDS,
    saved: {
      title: 'HTTPS settings saved',
      message: 'They apply now, without a restart: the status above shows when they are live.',
    },
  });
  const { textField, switchField, field } = form;
  return (
    <Stack maw={640}>
      <HttpsRuntime enabledInSettings={Boolean(form.query.data?.enabled)} />
      <SettingsForm form={form} label="HTTPS settings" name="HTTPS" submitLabel="Save HTTPS settings">
        {(values) => (
          <>
            <Switch
              label="Serve HTTPS"
              description={
                'A self-signed certificate is created on first use unless you give your own. Bouncers on ' +
                'other hosts should then use the https api_url.'
              }
              {...switchField('enabled')}
            />
            <BoundedNumberInput
              label="HTTPS port"
              min={1}
              max={65535}
              maw={200}
              disabled={!values.enabled}
              {...field('port')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Certificate file (optional)"
                placeholder="/etc/ssl/pbx/fullchain.pem"
                disabled={!values.enabled}
                {...textField('certificatePath')}
              />
              <TextInput
                label="Private key file (optional)"
                placeholder="/etc/ssl/pbx/privkey.pem"
                disabled={!values.enabled}
                {...textField('privateKeyPath')}
              />
            </SimpleGrid>
          </>
        )}
      </SettingsForm>
    </Stack>
  );
}
