import { Badge, Button, Card, Group, ScrollArea, SegmentedControl, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLockOpen, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ConfirmAction } from '../../../components/ConfirmAction.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatDateTime, formatDuration, toMillis } from '../../../lib/format.ts';
import { useNow } from '../../../lib/use-now.ts';
import { BAN_CATEGORIES, categoryColor, categoryLabel } from '../api/categories.ts';
import { useBannedIps, type BannedIp } from '../api/get-banned-ips.ts';
import { useUnbanIp } from '../api/unban-ip.ts';

/** Seconds left now: from expiresAt when given, else from the secondsLeft the list was fetched with. */
function secondsLeft(ban: BannedIp, fetchedAt: number, now: number): number {
  const expires = toMillis(ban.expiresAt);
  if (expires !== null) return Math.max(0, (expires - now) / 1000);
  return Math.max(0, ban.secondsLeft - (now - fetchedAt) / 1000);
}

function UnbanButton({ ip }: { ip: string }) {
  const unban = useUnbanIp();
  return (
    <ConfirmAction
      title={`Unban ${ip}?`}
      message={`${ip} can reach this PBX again at once, and bouncers remove the block on their next poll. Repeated failures will ban it again.`}
      confirmLabel="Unban"
      loading={unban.isPending}
      onConfirm={() =>
        unban.mutateAsync(ip).then(() => notifications.show({ color: 'teal', title: 'Unbanned', message: `${ip} is no longer banned.` }))
      }
      trigger={(open) => (
        <Button size="xs" variant="light" leftSection={<IconLockOpen size={14} />} onClick={open} aria-label={`Unban ${ip}`}>
          Unban
        </Button>
      )}
    />
  );
}

/** The active bans with a live countdown, filterable by category and address. */
export function BansTable() {
  const bans = useBannedIps();
  const now = useNow();
  const [category, setCategory] = useState('all');
  const [search, setSearch] = useState('');
  const list = useMemo(() => bans.data ?? [], [bans.data]);
  // Newest first: the ban an operator is asked about is usually the latest one.
  const shown = list
    .filter((ban) => (category === 'all' || ban.category === category) && ban.ip.includes(search.trim()))
    .sort((a, b) => (toMillis(b.bannedAt) ?? 0) - (toMillis(a.bannedAt) ?? 0));

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap">
        <ScrollArea type="never" maw="100%">
          <SegmentedControl
            aria-label="Category"
            value={category}
            onChange={setCategory}
            data={[{ value: 'all', label: `All (${list.length})` }, ...BAN_CATEGORIES.map((c) => ({ value: c.value, label: `${c.label} (${list.filter((b) => b.category === c.value).length})` }))]}
          />
        </ScrollArea>
        <TextInput
          aria-label="Filter by IP address"
          placeholder="Filter by IP"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={240}
        />
      </Group>
      <QueryState
        query={bans}
        label="bans"
        isEmpty={shown.length === 0}
        empty={{
          title: list.length === 0 ? 'No active bans' : 'No ban matches the filter',
          hint: list.length === 0 ? 'Addresses that fail to authenticate too often (SIP, IAX, AMI or this web console) are banned here automatically.' : 'Clear the IP filter or pick another category.',
        }}
      >
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label="Active bans">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>IP address</Table.Th>
                <Table.Th>Category</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Banned at</Table.Th>
                <Table.Th>Time left</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((ban) => (
                <Table.Tr key={`${ban.category}-${ban.ip}`} data-testid="ban-row">
                  <Table.Td ff="monospace">{ban.ip}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={categoryColor(ban.category)}>
                      {categoryLabel(ban.category)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c={ban.reason ? undefined : 'dimmed'}>
                      {ban.reason || '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDateTime(ban.bannedAt)}</Table.Td>
                  <Table.Td ff="monospace" aria-live="off">
                    {formatDuration(secondsLeft(ban, bans.dataUpdatedAt, now))}
                  </Table.Td>
                  <Table.Td ta="right">
                    <UnbanButton ip={ban.ip} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </QueryState>
      <Stack gap={0} mt="sm">
        <Text size="xs" c="dimmed">
          Refreshed every 10 seconds. Ban duration and thresholds are set in Settings.
        </Text>
      </Stack>
    </Card>
  );
}
