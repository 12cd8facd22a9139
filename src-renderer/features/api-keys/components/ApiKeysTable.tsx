import { Badge, Button, Code, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconEdit,
  IconInfoCircle,
  IconKey,
  IconKeyOff,
  IconPlayerPlay,
  IconPlus,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { formatAgo, formatDateTime } from '../../../lib/format.ts';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useDeleteApiKey } from '../api/delete-api-key.ts';
import { useApiKeys } from '../api/get-api-keys.ts';
import { useRotateApiKey } from '../api/rotate-api-key.ts';
import { useSetApiKeyEnabled } from '../api/set-api-key-enabled.ts';
import {
  BOUNCER_PRESET,
  bouncerSetupOf,
  statusOf,
  type ApiKey,
  type BouncerSetup,
  type IssuedKey,
  type ServerCertificate,
} from '../api/types.ts';
import { ApiKeyDetailsModal } from './ApiKeyDetailsModal.tsx';
import { CreateApiKeyModal, type FilterField } from './CreateApiKeyModal.tsx';
import { EditApiKeyModal } from './EditApiKeyModal.tsx';
import { IssuedKeyPanel } from './IssuedKeyPanel.tsx';
import { KeyStatusBadge } from './KeyStatusBadge.tsx';

const isBouncerKey = (key: ApiKey) => {
  const paths = key.allowed_paths;
  return (
    Object.keys(paths).length === 1 && paths['/api/v3/firewall-bouncer'] === BOUNCER_PRESET['/api/v3/firewall-bouncer']
  );
};

const hasFullAccess = (key: ApiKey) => key.full_permissions;

/** The key's access in words, for the search box. */
const accessText = (key: ApiKey) =>
  hasFullAccess(key)
    ? 'full access'
    : isBouncerKey(key)
      ? 'firewall bouncer'
      : Object.keys(key.allowed_paths).join(' ');

function AccessCell({ apiKey }: { apiKey: ApiKey }) {
  // Whole words: a long cell beside them must not squeeze them to "FIREWALL B…".
  if (hasFullAccess(apiKey))
    return (
      <Badge color="red" variant="light" style={{ minWidth: 'max-content' }}>
        Full access
      </Badge>
    );
  if (isBouncerKey(apiKey))
    return (
      <Badge color="blue" variant="light" style={{ minWidth: 'max-content' }}>
        Firewall bouncer
      </Badge>
    );
  const paths = Object.entries(apiKey.allowed_paths);
  if (paths.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No access
      </Text>
    );
  return (
    <Stack gap={2}>
      {paths.map(([path, permission]) => (
        <Text key={path} size="xs" ff="monospace">
          {path}{' '}
          <Text span c="dimmed" size="xs">
            ({permission})
          </Text>
        </Text>
      ))}
    </Stack>
  );
}

/** API keys with their state, access, binding, expiry and last use; create, edit, disable or enable, rotate and delete. */
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
  const rotate = useRotateApiKey();
  const setEnabled = useSetApiKeyEnabled();
  const remove = useDeleteApiKey();
  const rotating = useDialogTarget<ApiKey>();
  const disabling = useDialogTarget<ApiKey>();
  const deleting = useDialogTarget<ApiKey>();
  const [editing, setEditing] = useState<ApiKey | null>(null);
  const [viewing, setViewing] = useState<ApiKey | null>(null);
  const now = useNow(5000);
  const [createOpened, createModal] = useDisclosure(false);
  const [reissued, setReissued] = useState<{
    issued: IssuedKey;
    forBouncer: boolean;
    setup: BouncerSetup;
    localOnly: boolean;
  } | null>(null);

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
        row={{
          label: (k) => k.description,
          testId: 'api-key-row',
          actions: (k) => [
            { label: 'Details', icon: <IconInfoCircle size={16} />, onClick: () => setViewing(k) },
            { label: 'Edit…', icon: <IconEdit size={16} />, onClick: () => setEditing(k) },
            k.enabled === false
              ? {
                  label: 'Enable',
                  icon: <IconPlayerPlay size={16} />,
                  onClick: () =>
                    void setEnabled
                      .mutateAsync({ key: k, enabled: true })
                      .then(() => notifications.show({ color: 'teal', title: 'Key enabled', message: k.description })),
                }
              : { label: 'Disable…', icon: <IconKeyOff size={16} />, onClick: () => disabling.open(k) },
            { label: 'Rotate…', icon: <IconRefresh size={16} />, onClick: () => rotating.open(k) },
            { label: 'Delete…', icon: <IconTrash size={16} />, onClick: () => deleting.open(k), color: 'red' },
          ],
        }}
        frame={{ minWidth: 1040 }}
        search={{
          label: 'Search API keys',
          placeholder: 'Search description, access, source',
          text: (k) =>
            `${k.description} ${k.key_display} ${statusOf(k, now)} ${accessText(k)} ` +
            `${describeFilter(k.networkfilterid)} ${k.last_used_ip ?? ''}`,
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
          { header: 'Status', render: (k) => <KeyStatusBadge status={statusOf(k, now)} /> },
          { header: 'Key', render: (k) => <Code>{k.key_display}</Code> },
          { header: 'Access', render: (k) => <AccessCell apiKey={k} /> },
          {
            header: 'Expires',
            render: (k) => (
              <Text size="sm" c={k.expires_at ? undefined : 'dimmed'} data-testid="api-key-expiry">
                {k.expires_at ? formatDateTime(k.expires_at) : 'Never'}
              </Text>
            ),
          },
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
      <CreateApiKeyModal
        opened={createOpened}
        onClose={createModal.close}
        filterField={filterField}
        bouncerApiUrls={bouncerApiUrls}
        certificate={certificate}
      />
      <ConfirmDialog
        dialog={disabling}
        title={(key) => `Disable “${key.description}”?`}
        message={(key) =>
          `The key (${key.key_display}) is disabled at once: every request with it gets 401, a ` +
          `bouncer's polls included. Its record, access, binding and bouncer cursor stay, and Enable ` +
          `makes the same key work again.`
        }
        confirmLabel="Disable key"
        loading={setEnabled.isPending}
        onConfirm={(key) =>
          setEnabled
            .mutateAsync({ key, enabled: false })
            .then(() => notifications.show({ color: 'teal', title: 'Key disabled', message: key.description }))
        }
      />
      <ConfirmDialog
        dialog={rotating}
        title={(key) => `Rotate “${key.description}”?`}
        message={(key) =>
          `The current value (${key.key_display}) stops working at once and a new one is shown once. ` +
          `The record, its access, binding, expiry and bouncer cursor stay: give the new value to the ` +
          `bouncer or script.`
        }
        confirmLabel="Rotate key"
        loading={rotate.isPending}
        // The new value gets the configuration of the bouncer the key was made for.
        onConfirm={(key) =>
          rotate.mutateAsync(key).then((issued) =>
            setReissued({
              issued,
              forBouncer: isBouncerKey(key),
              setup: bouncerSetupOf(key),
              localOnly: key.networkfilterid === 'localhost',
            }),
          )
        }
      />
      <EditApiKeyModal apiKey={editing} onClose={() => setEditing(null)} filterField={filterField} />
      <ApiKeyDetailsModal apiKey={viewing} onClose={() => setViewing(null)} describeFilter={describeFilter} />
      <ConfirmDialog
        dialog={deleting}
        title={(key) => `Delete “${key.description}”?`}
        message={() =>
          'The key stops working at once and its record, including its last use, is removed. A bouncer using it stops receiving decisions.'
        }
        confirmLabel="Delete key"
        loading={remove.isPending}
        onConfirm={(key) =>
          remove
            .mutateAsync(key.id)
            .then(() => notifications.show({ color: 'teal', title: 'Key deleted', message: key.description }))
        }
      />
      <Modal
        opened={reissued !== null}
        onClose={() => setReissued(null)}
        title="Key rotated: new value"
        size="lg"
        centered
        closeOnClickOutside={false}
      >
        {reissued && (
          <Stack>
            <IssuedKeyPanel
              apiKey={reissued.issued.key}
              bouncerApiUrls={bouncerApiUrls}
              forBouncer={reissued.forBouncer}
              backend={reissued.setup === 'nftables' ? 'nftables' : 'iptables'}
              client={reissued.setup === 'custom-bouncer' ? 'custom' : 'firewall'}
              localOnly={reissued.localOnly}
              certificate={certificate}
            />
            <Group justify="flex-end">
              <Button onClick={() => setReissued(null)}>I have copied it</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
