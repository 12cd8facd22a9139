import { Badge, Card, Group, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconAccessPoint } from '@tabler/icons-react';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatAgo, formatDateTime, toMillis } from '../../../lib/format.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useBouncerStatus, type BouncerStatus } from '../api/get-bouncer-status.ts';

/** A bouncer that has not polled for this long is shown in red (they poll every 5–10 s). */
const SILENT_AFTER_MS = 60_000;

function pollState(bouncer: BouncerStatus, now: number): { label: string; color: string } {
  const last = toMillis(bouncer.lastPollAt);
  if (last === null) return { label: 'Never polled', color: 'gray' };
  return now - last > SILENT_AFTER_MS ? { label: 'Silent', color: 'red' } : { label: 'Polling', color: 'teal' };
}

/** Dashboard card: the last poll of each bouncer key, red when silent for over a minute. */
export function BouncerStatusCard() {
  const status = useBouncerStatus();
  const now = useNow();
  const list = status.data ?? [];
  return (
    <Card withBorder padding="lg" radius="md" h="100%" component="section" aria-labelledby="bouncers-card-title">
      <Group gap="xs" mb="sm">
        <IconAccessPoint size={20} aria-hidden />
        <Title order={2} size="h4" id="bouncers-card-title">
          Bouncers
        </Title>
      </Group>
      <QueryState
        query={status}
        label="bouncer status"
        isEmpty={list.length === 0}
        empty={{
          title: 'No bouncer keys',
          hint: 'Create a key with the “Firewall bouncer” preset in API keys, then paste its configuration on the firewall host.',
        }}
      >
        <Table.ScrollContainer minWidth={320}>
          <Table verticalSpacing="xs" aria-label="Bouncer keys and their last poll">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Key</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Last poll</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((b) => {
                const state = pollState(b, now);
                return (
                  <Table.Tr key={String(b.keyId)} data-testid="bouncer-row" data-state={state.label}>
                    <Table.Td>
                      <Text size="sm" fw={500} lineClamp={1}>
                        {b.description || `Key #${b.keyId}`}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={state.color} variant={state.color === 'red' ? 'filled' : 'light'}>
                        {state.label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Tooltip label={formatDateTime(b.lastPollAt)} disabled={!b.lastPollAt}>
                        <Text size="sm" c={state.color === 'red' ? 'red' : undefined}>
                          {formatAgo(b.lastPollAt, now)}
                        </Text>
                      </Tooltip>
                      {b.lastPollIp && (
                        <Text size="xs" c="dimmed" ff="monospace">
                          from {b.lastPollIp}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </QueryState>
    </Card>
  );
}
