import { Badge, Button, Code, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconKey, IconKeyOff, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { formatAgo, formatDateTime } from '../../../lib/format.ts';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useDeleteApiKey } from '../api/delete-api-key.ts';
import { useApiKeys } from '../api/get-api-keys.ts';
import { useRevokeApiKey } from '../api/revoke-api-key.ts';
import { allowedPathsOf, BOUNCER_PRESET, type ApiKey, type IssuedKey, type ServerCertificate } from '../api/types.ts';
import { CreateApiKeyModal, type FilterField } from './CreateApiKeyModal.tsx';
import { IssuedKeyPanel } from './IssuedKeyPanel.tsx';
import type { FirewallBackend } from '../api/bouncer-config.ts';

const isBouncerKey = (key: ApiKey) => {
  const paths = allowedPathsOf(key);
  return Object.keys(paths).length === 1 && paths['/api/v3/firewall-bouncer'] === BOUNCER_PRESET['/api/v3/firewall-bouncer'];
};

const hasFullAccess = (key: ApiKey) => key.full_permissions === true || key.full_permissions === 1;

/** The key's access in words, for the search box. */
const accessText = (key: ApiKey) => (hasFullAccess(key) ? 'full access' : isBouncerKey(key) ? 'firewall bouncer' : Object.keys(allowedPathsOf(key)).join(' '));

function AccessCell({ apiKey }: { apiKey: ApiKey }) {
  if (hasFullAccess(apiKey)) return <Badge color="red" variant="light">Full access</Badge>;
  if (isBouncerKey(apiKey)) return <Badge color="blue" variant="light">Firewall bouncer</Badge>;
  const paths = Object.entries(allowedPathsOf(apiKey));
  if (paths.length === 0) return <Text size="sm" c="dimmed">No access</Text>;
  return (
    <Stack gap={2}>
      {paths.map(([path, permission]) => (
        <Text key={path} size="xs" ff="monospace">
          {path} <Text span c="dimmed" size="xs">({permission})</Text>
        </Text>
      ))}
    </Stack>
  );
}

/** API keys with their access, binding and last use; create, revoke and delete. */
export function ApiKeysTable({
  filterField,
  describeFilter,
  bouncerApiUrls,
  certificate,
}: {
  filterField: FilterField;
  describeFilter: (id: string) => string;
  bouncerApiUrls: string[];
  /** This server's HTTPS certificate, pinned by the configurations shown with a new key. */
  certificate?: ServerCertificate | null;
}) {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const remove = useDeleteApiKey();
  const revoking = useDialogTarget<ApiKey>();
  const deleting = useDialogTarget<ApiKey>();
  const now = useNow(5000);
  const [createOpened, createModal] = useDisclosure(false);
  const [reissued, setReissued] = useState<{ issued: IssuedKey; forBouncer: boolean; backend: FirewallBackend } | null>(null);

  return (
    <>
      <Group justify="flex-end" mb="md">
        <Button leftSection={<IconPlus size={16} />} onClick={createModal.open}>
          New API key
        </Button>
      </Group>
      <DataTable
        label="API keys"
        query={keys}
        rows={keys.data ?? []}
        rowKey={(k) => String(k.id)}
        rowLabel={(k) => k.description}
        rowTestId="api-key-row"
        minWidth={820}
        search={{
          label: 'Search API keys',
          placeholder: 'Search description, access, source',
          text: (k) => `${k.description} ${k.key_display} ${accessText(k)} ${describeFilter(k.networkfilterid)} ${k.last_used_ip ?? ''}`,
        }}
        columns={[
          {
            header: 'Description',
            card: 'title',
            render: (k) => (
              <>
                <Text size="sm" fw={600}>
                  {k.description}
                </Text>
                <Text size="xs" c="dimmed" fw={400}>
                  Created {formatDateTime(k.created_at)}
                </Text>
              </>
            ),
          },
          { header: 'Key', render: (k) => <Code>{k.key_display}</Code> },
          { header: 'Access', render: (k) => <AccessCell apiKey={k} /> },
          {
            header: 'Allowed source',
            render: (k) => (
              <Text size="sm" c={k.networkfilterid === 'none' ? 'orange' : undefined}>
                {describeFilter(k.networkfilterid)}
              </Text>
            ),
          },
          {
            header: 'Last used',
            render: (k) => (
              <>
                <Tooltip label={formatDateTime(k.last_used_at)} disabled={!k.last_used_at}>
                  <Text size="sm" c={k.last_used_at ? undefined : 'dimmed'}>
                    {k.last_used_at ? formatAgo(k.last_used_at, now) : 'Never'}
                  </Text>
                </Tooltip>
                {k.last_used_ip && (
                  <Text size="xs" c="dimmed" ff="monospace">
                    from {k.last_used_ip}
                  </Text>
                )}
              </>
            ),
          },
        ]}
        actions={(k) => [
          { label: 'Revoke…', icon: <IconKeyOff size={16} />, onClick: () => revoking.open(k) },
          { label: 'Delete…', icon: <IconTrash size={16} />, onClick: () => deleting.open(k), color: 'red' },
        ]}
        empty={{
          title: 'No API keys',
          hint: 'Create one for each bouncer (firewall host) or script that calls this server. Each key is shown once, when it is created.',
          action: (
            <Button mt="sm" leftSection={<IconKey size={16} />} onClick={createModal.open}>
              Create the first key
            </Button>
          ),
        }}
      />
      <CreateApiKeyModal opened={createOpened} onClose={createModal.close} filterField={filterField} bouncerApiUrls={bouncerApiUrls} certificate={certificate} />
      <ConfirmDialog
        dialog={revoking}
        title={(key) => `Revoke “${key.description}”?`}
        message={(key) =>
          `The current key (${key.key_display}) stops working at once. The record, its access and its binding stay, with a new key that is shown once: give it to the bouncer, or ignore it to keep the key disabled.`
        }
        confirmLabel="Revoke key"
        loading={revoke.isPending}
        // The replacement keeps the record's options: an expand_ranges key is an nftables bouncer's.
        onConfirm={(key) => revoke.mutateAsync(key).then((issued) => setReissued({ issued, forBouncer: isBouncerKey(key), backend: key.expand_ranges ? 'nftables' : 'iptables' }))}
      />
      <ConfirmDialog
        dialog={deleting}
        title={(key) => `Delete “${key.description}”?`}
        message={() => 'The key stops working at once and its record, including its last use, is removed. A bouncer using it stops receiving decisions.'}
        confirmLabel="Delete key"
        loading={remove.isPending}
        onConfirm={(key) => remove.mutateAsync(key.id).then(() => notifications.show({ color: 'teal', title: 'Key deleted', message: key.description }))}
      />
      <Modal opened={reissued !== null} onClose={() => setReissued(null)} title="Key revoked: replacement key" size="lg" centered closeOnClickOutside={false}>
        {reissued && (
          <Stack>
            <IssuedKeyPanel apiKey={reissued.issued.key} bouncerApiUrls={bouncerApiUrls} forBouncer={reissued.forBouncer} backend={reissued.backend} certificate={certificate} />
            <Group justify="flex-end">
              <Button onClick={() => setReissued(null)}>Done</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
