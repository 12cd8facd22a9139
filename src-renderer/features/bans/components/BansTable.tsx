import { Badge, SegmentedControl, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLockOpen } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { formatDateTime, formatDuration, toMillis } from '../../../lib/format.ts';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
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

/** The active bans with a live countdown, filterable by category and address. */
export function BansTable() {
  const bans = useBannedIps();
  const unban = useUnbanIp();
  const unbanning = useDialogTarget<string>();
  const now = useNow();
  const narrow = useNarrowScreen();
  const [category, setCategory] = useState('all');
  // Newest first: the ban an operator is asked about is usually the latest one.
  const list = useMemo(() => [...(bans.data ?? [])].sort((a, b) => (toMillis(b.bannedAt) ?? 0) - (toMillis(a.bannedAt) ?? 0)), [bans.data]);

  return (
    <>
      <DataTable
        label="Active bans"
        noun="bans"
        query={bans}
        rows={list}
        rowKey={(ban) => `${ban.category}-${ban.ip}`}
        rowLabel={(ban) => ban.ip}
        rowTestId="ban-row"
        filter={(ban) => category === 'all' || ban.category === category}
        search={{ label: 'Filter by IP address', placeholder: 'Filter by IP or reason', text: (ban) => `${ban.ip} ${ban.reason ?? ''}` }}
        toolbar={
          <SegmentedControl
            aria-label="Category"
            value={category}
            onChange={setCategory}
            // On a phone the five choices share the width instead of running off screen.
            fullWidth={narrow}
            size={narrow ? 'xs' : 'sm'}
            w={narrow ? '100%' : undefined}
            data={[{ value: 'all', label: `All (${list.length})` }, ...BAN_CATEGORIES.map((c) => ({ value: c.value, label: `${c.label} (${list.filter((b) => b.category === c.value).length})` }))]}
          />
        }
        columns={[
          { header: 'IP address', mono: true, card: 'title', render: (ban) => ban.ip },
          {
            header: 'Category',
            render: (ban) => (
              <Badge variant="light" color={categoryColor(ban.category)}>
                {categoryLabel(ban.category)}
              </Badge>
            ),
          },
          {
            header: 'Reason',
            render: (ban) => (
              <Text size="sm" c={ban.reason ? undefined : 'dimmed'}>
                {ban.reason || '—'}
              </Text>
            ),
          },
          { header: 'Banned at', render: (ban) => formatDateTime(ban.bannedAt) },
          { header: 'Time left', mono: true, render: (ban) => formatDuration(secondsLeft(ban, bans.dataUpdatedAt, now)) },
        ]}
        actions={(ban) => [{ label: 'Unban', icon: <IconLockOpen size={14} />, onClick: () => unbanning.open(ban.ip) }]}
        empty={{ title: 'No active bans', hint: 'Addresses that fail to authenticate too often (SIP, IAX, AMI or this web console) are banned here automatically.' }}
        noMatch={{ title: 'No ban matches the filter', hint: 'Clear the IP filter or pick another category.' }}
        footer={
          <Text size="xs" c="dimmed" mt="sm">
            Refreshed every 10 seconds. Ban duration and thresholds are set in Settings.
          </Text>
        }
      />
      <ConfirmDialog
        dialog={unbanning}
        title={(ip) => `Unban ${ip}?`}
        message={(ip) => `${ip} can reach this PBX again at once, and bouncers remove the block on their next poll. Repeated failures will ban it again.`}
        confirmLabel="Unban"
        loading={unban.isPending}
        onConfirm={(ip) => unban.mutateAsync(ip).then(() => notifications.show({ color: 'teal', title: 'Unbanned', message: `${ip} is no longer banned.` }))}
      />
    </>
  );
}
