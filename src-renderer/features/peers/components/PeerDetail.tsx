import { Alert, Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { QueryState } from '../../../components/QueryState.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { linkProps } from '../../../lib/router.ts';
import { usePeerDetail } from '../api/get-peer-detail.ts';
import { PeerStateBadge } from './PeerStateBadge.tsx';

// The fields operators look at, in this order, with readable labels; AMI bookkeeping is left out.
const LABELS: Record<string, string> = {
  Status: 'Contact status',
  URI: 'Contact URI',
  ViaAddress: 'Via address',
  UserAgent: 'User agent',
  RoundtripUsec: 'Round trip',
  RegExpire: 'Registration expires',
  AOR: 'AOR',
  EndpointName: 'Endpoint',
  CallID: 'Call-ID',
  ID: 'Contact ID',
  QualifyFrequency: 'Qualify every',
  QualifyTimeout: 'Qualify timeout',
  AuthenticateQualify: 'Authenticate qualify',
  OutboundProxy: 'Outbound proxy',
  Path: 'Path',
};
const HIDDEN = new Set(['Event', 'ActionID', 'state']);

/** Units and dates for the few values that are raw numbers on the wire. */
function display(key: string, value: string): string {
  if (value === '') return '—';
  if (key === 'RoundtripUsec' && /^\d+$/.test(value)) return `${(Number(value) / 1000).toFixed(1)} ms`;
  if (key === 'RegExpire' && /^\d{9,}$/.test(value)) return formatDateTime(Number(value) * 1000);
  if (key === 'QualifyFrequency' && /^\d+$/.test(value)) return `${value} s`;
  if (key === 'QualifyTimeout' && /^[\d.]+$/.test(value)) return `${Number(value)} s`;
  return value;
}

/** One extension's contact details, refreshed every 5 seconds. */
export function PeerDetail({ id }: { id: string }) {
  const detail = usePeerDetail(id);
  const data: Record<string, string | undefined> = detail.data ?? {};
  const known = (k: string) => data[k] !== undefined && data[k] !== null && String(data[k]) !== '';
  // Only what Asterisk reported: empty fields are not listed one by one as "—".
  const keys = [
    ...Object.keys(LABELS).filter((k) => k in data),
    ...Object.keys(data).filter((k) => !(k in LABELS) && !HIDDEN.has(k)),
  ].filter(known);
  const unknownState = typeof data.state !== 'string' || /unknown/i.test(data.state);
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
          <Title order={2} size="h4">
            Contact
          </Title>
          {typeof data.state === 'string' && <PeerStateBadge state={data.state} />}
        </Group>
        {notFound ? (
          <Alert color="yellow" variant="light" title="No such extension">
            Extension {id} does not exist. Go back to the list and pick another one.
          </Alert>
        ) : (
          <QueryState
            query={detail}
            label={`extension ${id}`}
            // The endpoint's own name is always there; only what Asterisk reports about the contact counts.
            isEmpty={keys.every((k) => k === 'EndpointName')}
            empty={
              unknownState
                ? {
                    title: 'Unknown: the Asterisk manager is not connected',
                    hint:
                      'Whether the phone is registered, its address, user agent and round trip come from Asterisk ' +
                      'over AMI. Connect it in Settings to see them here.',
                    action: (
                      <Anchor {...linkProps(paths.settings)} size="sm">
                        Check the AMI connection in Settings
                      </Anchor>
                    ),
                  }
                : { title: 'Not registered', hint: 'Asterisk has no contact for this extension.' }
            }
          >
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" component="dl" m={0}>
              {keys.map((key) => (
                <div key={key}>
                  <Text component="dt" size="xs" c="dimmed" fw={600}>
                    {LABELS[key] ?? key}
                  </Text>
                  <Text component="dd" size="sm" ff="monospace" m={0} style={{ wordBreak: 'break-all' }}>
                    {display(key, String(data[key] ?? ''))}
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
