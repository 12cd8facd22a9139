import { Button, Group } from '@mantine/core';
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
  IconRefreshDot,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useDeleteApiKey } from '../api/delete-api-key.ts';
import { useApiKeys } from '../api/get-api-keys.ts';
import { useResyncApiKey } from '../api/resync-api-key.ts';
import { useRotateApiKey } from '../api/rotate-api-key.ts';
import { useSetApiKeyEnabled } from '../api/set-api-key-enabled.ts';
import { bouncerSetupOf, statusOf, type ApiKey, type ServerCertificate } from '../api/types.ts';
import { accessText, apiKeyColumns, isBouncerKey, isRouterFeedKey } from './api-key-columns.tsx';
import { ApiKeyDetailsModal } from './ApiKeyDetailsModal.tsx';
import { CreateApiKeyModal, type FilterField } from './CreateApiKeyModal.tsx';
import { EditApiKeyModal } from './EditApiKeyModal.tsx';
import { RotatedKeyModal, type ReissuedKey } from './RotatedKeyModal.tsx';

/** API keys with their state, access, binding, expiry and last use; create, edit, disable or enable, rotate and delete. */
export function ApiKeysTable({
  filterField,
  describeFilter,
  bouncerApiUrls,
  feedUrlsFor,
  certificate,
}: {
  filterField: FilterField;
  describeFilter: (id: string) => string;
  bouncerApiUrls: string[];
  /** The URLs a router feed key bound so can fetch from (its binding decides). */
  feedUrlsFor: (networkfilterid: string) => string[];
  /** This server's HTTPS certificate, pinned by the configurations shown with a new key. */
  certificate?: ServerCertificate | null;
}) {
  const keys = useApiKeys();
  const rotate = useRotateApiKey();
  const resync = useResyncApiKey();
  const setEnabled = useSetApiKeyEnabled();
  const remove = useDeleteApiKey();
  const rotating = useDialogTarget<ApiKey>();
  const disabling = useDialogTarget<ApiKey>();
  const deleting = useDialogTarget<ApiKey>();
  const [editing, setEditing] = useState<ApiKey | null>(null);
  const [viewing, setViewing] = useState<ApiKey | null>(null);
  const now = useNow(5000);
  const [createOpened, createModal] = useDisclosure(false);
  const [reissued, setReissued] = useState<ReissuedKey | null>(null);

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
            // A bouncer or router that lost its set: everything again at its next poll or fetch.
            ...(Object.keys(k.allowed_paths).some((path) => path.startsWith('/api/v3/firewall-bouncer'))
              ? [
                  {
                    label: 'Resync',
                    icon: <IconRefreshDot size={16} />,
                    onClick: () =>
                      void resync
                        .mutateAsync(k)
                        .then(() =>
                          notifications.show({ color: 'teal', title: 'Resync requested', message: k.description }),
                        ),
                  },
                ]
              : []),
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
        columns={apiKeyColumns(now, describeFilter)}
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
        feedUrlsFor={feedUrlsFor}
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
              forBouncer: isBouncerKey(key) && !isRouterFeedKey(key),
              setup: bouncerSetupOf(key),
              localOnly: key.networkfilterid === 'localhost',
            }),
          )
        }
      />
      <EditApiKeyModal apiKey={editing} onClose={() => setEditing(null)} filterField={filterField} />
      <ApiKeyDetailsModal
        apiKey={viewing}
        onClose={() => setViewing(null)}
        describeFilter={describeFilter}
        feedUrlsFor={feedUrlsFor}
      />
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
      <RotatedKeyModal
        reissued={reissued}
        onClose={() => setReissued(null)}
        bouncerApiUrls={bouncerApiUrls}
        feedUrlsFor={feedUrlsFor}
        certificate={certificate}
      />
    </>
  );
}
