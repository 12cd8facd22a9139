import { Badge, Button, Card, Code, Group, Modal, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconKey, IconKeyOff, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/ConfirmAction.tsx';
import { RowActionsMenu } from '../../../components/RowActionsMenu.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatAgo, formatDateTime } from '../../../lib/format.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useDeleteApiKey } from '../api/delete-api-key.ts';
import { useApiKeys } from '../api/get-api-keys.ts';
import { useRevokeApiKey } from '../api/revoke-api-key.ts';
import { allowedPathsOf, BOUNCER_PRESET, type ApiKey, type IssuedKey } from '../api/types.ts';
import { CreateApiKeyModal, type FilterField } from './CreateApiKeyModal.tsx';
import { IssuedKeyPanel } from './IssuedKeyPanel.tsx';

const isBouncerKey = (key: ApiKey) => {
  const paths = allowedPathsOf(key);
  return Object.keys(paths).length === 1 && paths['/api/v3/firewall-bouncer'] === BOUNCER_PRESET['/api/v3/firewall-bouncer'];
};

function AccessCell({ apiKey }: { apiKey: ApiKey }) {
  if (apiKey.full_permissions === true || apiKey.full_permissions === 1) return <Badge color="red" variant="light">Full access</Badge>;
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

function KeyActions({ apiKey, onIssued }: { apiKey: ApiKey; onIssued: (issued: IssuedKey, forBouncer: boolean) => void }) {
  const revoke = useRevokeApiKey();
  const remove = useDeleteApiKey();
  const [revokeOpened, revokeModal] = useDisclosure(false);
  return (
    <>
      <ConfirmAction
        title={`Delete “${apiKey.description}”?`}
        message="The key stops working at once and its record, including its last use, is removed. A bouncer using it stops receiving decisions."
        confirmLabel="Delete key"
        loading={remove.isPending}
        onConfirm={() => remove.mutateAsync(apiKey.id).then(() => notifications.show({ color: 'teal', title: 'Key deleted', message: apiKey.description }))}
        trigger={(openDelete) => (
          <RowActionsMenu
            rowLabel={apiKey.description}
            actions={[
              { label: 'Revoke…', icon: <IconKeyOff size={16} />, onClick: revokeModal.open },
              { label: 'Delete…', icon: <IconTrash size={16} />, onClick: openDelete, color: 'red' },
            ]}
          />
        )}
      />
      <Modal opened={revokeOpened} onClose={revokeModal.close} title={`Revoke “${apiKey.description}”?`} centered>
        <Stack>
          <Text size="sm">
            The current key ({apiKey.key_display}) stops working at once. The record, its access and its binding stay, with a new key that is shown once: give it
            to the bouncer, or ignore it to keep the key disabled.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={revokeModal.close}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={revoke.isPending}
              onClick={() =>
                revoke.mutate(apiKey, {
                  onSuccess: (issued) => {
                    revokeModal.close();
                    onIssued(issued, isBouncerKey(apiKey));
                  },
                })
              }
            >
              Revoke key
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** API keys with their access, binding and last use; create, revoke and delete. */
export function ApiKeysTable({ filterField, describeFilter, bouncerApiUrls }: { filterField: FilterField; describeFilter: (id: string) => string; bouncerApiUrls: string[] }) {
  const keys = useApiKeys();
  const now = useNow(5000);
  const [createOpened, createModal] = useDisclosure(false);
  const [reissued, setReissued] = useState<{ issued: IssuedKey; forBouncer: boolean } | null>(null);
  const list = keys.data ?? [];

  return (
    <>
      <Group justify="flex-end" mb="md">
        <Button leftSection={<IconPlus size={16} />} onClick={createModal.open}>
          New API key
        </Button>
      </Group>
      <Card withBorder radius="md" padding="lg">
        <QueryState
          query={keys}
          label="API keys"
          isEmpty={list.length === 0}
          empty={{
            title: 'No API keys',
            hint: 'Create one for each bouncer (firewall host) or script that calls this server. Each key is shown once, when it is created.',
            action: (
              <Button mt="sm" leftSection={<IconKey size={16} />} onClick={createModal.open}>
                Create the first key
              </Button>
            ),
          }}
        >
          <Table.ScrollContainer minWidth={820}>
            <Table highlightOnHover verticalSpacing="sm" aria-label="API keys">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Description</Table.Th>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Access</Table.Th>
                  <Table.Th>Allowed source</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((k) => (
                  <Table.Tr key={String(k.id)} data-testid="api-key-row">
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {k.description}
                      </Text>
                      <Text size="xs" c="dimmed">
                        Created {formatDateTime(k.created_at)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Code>{k.key_display}</Code>
                    </Table.Td>
                    <Table.Td>
                      <AccessCell apiKey={k} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={k.networkfilterid === 'none' ? 'orange' : undefined}>
                        {describeFilter(k.networkfilterid)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
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
                    </Table.Td>
                    <Table.Td ta="right">
                      <KeyActions apiKey={k} onIssued={(issued, forBouncer) => setReissued({ issued, forBouncer })} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </QueryState>
      </Card>
      <CreateApiKeyModal opened={createOpened} onClose={createModal.close} filterField={filterField} bouncerApiUrls={bouncerApiUrls} />
      <Modal opened={reissued !== null} onClose={() => setReissued(null)} title="Key revoked: replacement key" size="lg" centered closeOnClickOutside={false}>
        {reissued && (
          <Stack>
            <IssuedKeyPanel apiKey={reissued.issued.key} bouncerApiUrls={bouncerApiUrls} forBouncer={reissued.forBouncer} />
            <Group justify="flex-end">
              <Button onClick={() => setReissued(null)}>Done</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
