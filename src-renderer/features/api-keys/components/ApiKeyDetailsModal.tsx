import { Code, Group, Modal, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { DataTable } from '../../../components/DataTable.tsx';
import { formatAgo, formatDateTime } from '../../../lib/format.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useApiKey } from '../api/get-api-key.ts';
import { BOUNCER_SETUP_LABELS, statusOf, type ApiKey, type KeySource } from '../api/types.ts';
import { KeyStatusBadge } from './KeyStatusBadge.tsx';
import { RouterFeedDetails } from './RouterFeedDetails.tsx';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

/** One key's state, dates and last use per source address (read fresh from the server). */
export function ApiKeyDetailsModal({
  apiKey,
  onClose,
  describeFilter,
  feedUrlsFor,
}: {
  apiKey: ApiKey | null;
  onClose: () => void;
  describeFilter: (id: string) => string;
  feedUrlsFor: (networkfilterid: string) => string[];
}) {
  const detail = useApiKey(apiKey?.id ?? null);
  const now = useNow(5000);
  const key = detail.data ?? apiKey;
  return (
    <Modal
      opened={apiKey !== null}
      onClose={onClose}
      title={apiKey ? `Details of “${apiKey.description}”` : ''}
      size="lg"
      centered
    >
      {key && (
        <Stack data-testid="api-key-details">
          <Group gap="sm">
            <KeyStatusBadge status={statusOf(key, now)} />
            <Code>{key.key_display}</Code>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Fact label="Created">{formatDateTime(key.created_at)}</Fact>
            <Fact label="Expires">{key.expires_at ? formatDateTime(key.expires_at) : 'Never'}</Fact>
            <Fact label="Allowed source">{describeFilter(key.networkfilterid)}</Fact>
            {key.bouncer_setup && <Fact label="Made for">{BOUNCER_SETUP_LABELS[key.bouncer_setup]}</Fact>}
            <Fact label="Key value replaced">{key.rotated_at ? formatDateTime(key.rotated_at) : 'Never'}</Fact>
            {key.disabled_at && <Fact label="Disabled since">{formatDateTime(key.disabled_at)}</Fact>}
          </SimpleGrid>
          {key.bouncer_setup === 'router-feed' && <RouterFeedDetails apiKey={key} feedUrlsFor={feedUrlsFor} />}
          <Text size="sm" fw={600}>
            Last use per source address
          </Text>
          <DataTable<KeySource>
            label="Source addresses"
            query={detail}
            rows={key.sources ?? []}
            row={{ key: (s) => s.ip, testId: 'api-key-source' }}
            frame={{ card: false }}
            columns={[
              { header: 'Address', mono: true, card: 'title', render: (s) => s.ip },
              {
                header: 'Last used',
                render: (s) => (
                  <Tooltip label={formatDateTime(s.last_used_at)}>
                    <Text size="sm">{formatAgo(s.last_used_at, now)}</Text>
                  </Tooltip>
                ),
              },
            ]}
            empty={{
              title: 'Never used',
              hint:
                'The key has not been used yet. Each address it is used from appears here (the 20 most ' +
                'recent, updated at most once a minute).',
            }}
          />
        </Stack>
      )}
    </Modal>
  );
}
