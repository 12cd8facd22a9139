import { Alert, Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { QueryState } from '../../../components/QueryState.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { linkProps } from '../../../lib/router.ts';
import { usePeerDetail } from '../api/get-peer-detail.ts';
import { PeerStateBadge } from './PeerStateBadge.tsx';

// The fields operators look at first, in this order; the rest follow.
const MAIN_FIELDS = ['Status', 'URI', 'ViaAddress', 'UserAgent', 'RoundtripUsec', 'RegExpire', 'AOR', 'EndpointName'];

/** One extension's contact details, refreshed every 5 seconds. */
export function PeerDetail({ id }: { id: string }) {
  const detail = usePeerDetail(id);
  const data = detail.data ?? {};
  const keys = [...MAIN_FIELDS.filter((k) => k in data), ...Object.keys(data).filter((k) => !MAIN_FIELDS.includes(k) && k !== 'state')];
  const notFound = detail.error instanceof ApiError && detail.error.status === 404;
  return (
    <Stack>
      <Anchor {...linkProps(paths.peers)} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden /> All peers
        </Group>
      </Anchor>
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" mb="md">
          <Title order={2} size="h3">
            Extension {id}
          </Title>
          {typeof data.state === 'string' && <PeerStateBadge state={data.state} />}
        </Group>
        {notFound ? (
          <Alert color="yellow" variant="light" title="No such extension">
            Extension {id} does not exist. Go back to the list and pick another one.
          </Alert>
        ) : (
          <QueryState query={detail} label={`extension ${id}`} isEmpty={keys.length === 0} empty={<Text size="sm" c="dimmed">Asterisk has no contact for this extension: it is not registered.</Text>}>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" component="dl" m={0}>
              {keys.map((key) => (
                <div key={key}>
                  <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
                    {key}
                  </Text>
                  <Text component="dd" size="sm" ff="monospace" m={0} style={{ wordBreak: 'break-all' }}>
                    {data[key] === '' ? '—' : String(data[key])}
                  </Text>
                </div>
              ))}
            </SimpleGrid>
          </QueryState>
        )}
      </Card>
    </Stack>
  );
}
