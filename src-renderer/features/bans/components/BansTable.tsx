import { Button, Group, NativeSelect, SegmentedControl, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLockOpen, IconShieldCheck } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { OptionalText } from '../../../components/OptionalText.tsx';
import { formatDateTime, formatDuration, plural, toMillis } from '../../../lib/format.ts';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { useSharedNow } from '../../../lib/use-now.ts';
import { BAN_CATEGORIES, BAN_SERVICES, UPSTREAM_CATEGORY } from '../api/categories.ts';
import { useBannedIps, useUpstreamBanTotal, type BannedIp } from '../api/get-banned-ips.ts';
import { useUnbanIp } from '../api/unban-ip.ts';
import { useUnbanIps } from '../api/unban-ips.ts';
import { BanIpModal } from './BanIpModal.tsx';
import { BanNumber } from './BanNumber.tsx';
import { CategoryCell } from './CategoryBadge.tsx';
import { UnbanAndWhitelistModal } from './UnbanAndWhitelistModal.tsx';
import { DeliveryCell } from './DeliveryCell.tsx';

const isPermanent = (ban: BannedIp) => ban.permanent === true || ban.secondsLeft === null;

/** Seconds left now: from expiresAt when given, else from the secondsLeft the list was fetched with. */
function secondsLeft(ban: BannedIp, fetchedAt: number, now: number): number {
  const expires = toMillis(ban.expiresAt);
  if (expires !== null) return Math.max(0, (expires - now) / 1000);
  return Math.max(0, (ban.secondsLeft ?? 0) - (now - fetchedAt) / 1000);
}

/** The first addresses of a selection, and how many more. */
const listed = (ips: string[]) =>
  ips.length <= 8 ? ips.join(', ') : `${ips.slice(0, 8).join(', ')} and ${ips.length - 8} more`;

/** A row's live countdown: only these cells re-render every second (a list can hold 1,000 upstream rows). */
function TimeLeft({ ban, fetchedAt }: { ban: BannedIp; fetchedAt: number }) {
  const now = useSharedNow();
  return (
    <Text span size="sm" ff="monospace" data-testid="ban-time-left">
      {isPermanent(ban) ? 'Permanent' : formatDuration(secondsLeft(ban, fetchedAt, now))}
    </Text>
  );
}

const rowKeyOf = (ban: BannedIp) => `${ban.category}-${ban.ip}`;

/** The services a manual ban covers, when not all of them. */
const servicesText = (ban: BannedIp) =>
  ban.services && ban.services.length < BAN_SERVICES.length ? ban.services.join(', ') : null;

/**
 * The active bans, automatic and manual, with a live countdown ("Permanent" for bans without an
 * end): filter by category and address, ban an address, unban one or a selection.
 */
export function BansTable({ banOpened, onBanClose }: { banOpened: boolean; onBanClose: () => void }) {
  const bans = useBannedIps();
  const unban = useUnbanIp();
  const unbanMany = useUnbanIps();
  const unbanning = useDialogTarget<string>();
  const unbanningSelected = useDialogTarget<string[]>();
  const narrow = useNarrowScreen();
  const [category, setCategory] = useState('all');
  const [whitelisting, setWhitelisting] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  // Newest first: the ban an operator is asked about is usually the latest one.
  const list = useMemo(
    () => [...(bans.data ?? [])].sort((a, b) => (toMillis(b.bannedAt) ?? 0) - (toMillis(a.bannedAt) ?? 0)),
    [bans.data],
  );
  // Only rows still listed count: a ban that ended since it was ticked is not unbanned again. An
  // upstream decision is not lifted here (the LAPI would send it back): it is never unbanned.
  const selectedIps = [
    ...new Set(list.filter((ban) => selected.has(rowKeyOf(ban)) && !ban.upstream).map((ban) => ban.ip)),
  ];
  // Every upstream decision enforced, not only the ones listed (at most 1,000 of a community blocklist's many).
  const upstreamCount = useUpstreamBanTotal();
  const upstreamListed = list.filter((b) => b.category === UPSTREAM_CATEGORY.value).length;
  const categories = [
    { value: 'all', label: `All (${list.length - upstreamListed + upstreamCount})` },
    ...BAN_CATEGORIES.map((c) => ({
      value: c.value,
      label: `${c.label} (${list.filter((b) => b.category === c.value).length})`,
    })),
    // Upstream decisions (Many sites) are counted apart from this server's own bans, when there are any.
    ...(upstreamCount
      ? [{ value: UPSTREAM_CATEGORY.value, label: `${UPSTREAM_CATEGORY.label} (${upstreamCount})` }]
      : []),
  ];

  return (
    <>
      <DataTable
        label="Active bans"
        noun="bans"
        query={bans}
        rows={list}
        rowKey={rowKeyOf}
        rowLabel={(ban) => ban.ip}
        rowTestId="ban-row"
        minWidth={940}
        inlineActions
        filter={(ban) => category === 'all' || ban.category === category}
        search={{
          label: 'Filter by IP address',
          placeholder: 'Filter by IP or reason',
          text: (ban) => `${ban.ip} ${ban.reason ?? ''} ${ban.bannedBy ?? ''}`,
        }}
        selection={{ selected, onChange: setSelected }}
        toolbar={
          <Group gap="sm" w={narrow ? '100%' : undefined} wrap="wrap">
            {narrow ? (
              // Six choices do not fit a phone's width as segments.
              <NativeSelect
                aria-label="Category"
                value={category}
                onChange={(event) => setCategory(event.currentTarget.value)}
                data={categories}
                w="100%"
              />
            ) : (
              <SegmentedControl aria-label="Category" value={category} onChange={setCategory} data={categories} />
            )}
            <Button
              variant="light"
              color="red"
              leftSection={<IconLockOpen size={16} />}
              disabled={selectedIps.length === 0}
              onClick={() => unbanningSelected.open(selectedIps)}
              fullWidth={narrow}
            >
              {selectedIps.length ? `Unban selected (${selectedIps.length})` : 'Unban selected'}
            </Button>
          </Group>
        }
        columns={[
          { header: 'IP address', mono: true, card: 'title', render: (ban) => ban.ip },
          {
            header: 'Category',
            render: (ban) => (
              <CategoryCell category={ban.category}>
                {ban.category !== 'manual' && <BanNumber category={ban.category} banNumber={ban.banNumber} />}
                {servicesText(ban) && (
                  <Text size="xs" c="dimmed">
                    Refused on {servicesText(ban)}
                  </Text>
                )}
              </CategoryCell>
            ),
          },
          { header: 'Reason', render: (ban) => <OptionalText value={ban.reason} /> },
          {
            header: 'Banned',
            render: (ban) => (
              <>
                <Text size="sm">{formatDateTime(ban.bannedAt)}</Text>
                {ban.bannedBy && (
                  <Text size="xs" c="dimmed">
                    by {ban.bannedBy}
                  </Text>
                )}
              </>
            ),
          },
          {
            header: 'Time left',
            mono: true,
            render: (ban) => <TimeLeft ban={ban} fetchedAt={bans.dataUpdatedAt} />,
          },
          { header: 'Delivered', render: (ban) => <DeliveryCell delivery={ban.delivery} subject={ban.ip} /> },
        ]}
        actions={(ban) => [
          // An upstream decision belongs to the LAPI: lift it there, or whitelist it here (the whitelist wins).
          ...(ban.upstream
            ? []
            : [{ label: 'Unban', icon: <IconLockOpen size={14} />, onClick: () => unbanning.open(ban.ip) }]),
          {
            label: 'Unban and whitelist…',
            shortLabel: 'Whitelist…',
            icon: <IconShieldCheck size={14} />,
            onClick: () => setWhitelisting(ban.ip),
          },
        ]}
        empty={{
          title: 'No active bans',
          hint:
            'Addresses that fail to authenticate too often (SIP, IAX, AMI or this web console) are ' +
            'banned here automatically; "Ban an address" bans one yourself.',
        }}
        noMatch={{ title: 'No ban matches the filter', hint: 'Clear the IP filter or pick another category.' }}
        footer={
          <Text size="xs" c="dimmed" mt="sm">
            Refreshed every 10 seconds. Automatic ban duration and thresholds are set in Settings.
            {upstreamCount > upstreamListed &&
              ` Upstream: the ${upstreamListed.toLocaleString('en-US')} longest-lasting of ` +
                `${upstreamCount.toLocaleString('en-US')} decisions are listed.`}
          </Text>
        }
      />
      <BanIpModal opened={banOpened} onClose={onBanClose} />
      <UnbanAndWhitelistModal ip={whitelisting} onClose={() => setWhitelisting(null)} />
      <ConfirmDialog
        dialog={unbanning}
        title={(ip) => `Unban ${ip}?`}
        message={(ip) =>
          `${ip} can reach this PBX again at once, and bouncers remove the block on their next poll. Repeated failures will ban it again.`
        }
        confirmLabel="Unban"
        loading={unban.isPending}
        onConfirm={(ip) =>
          unban
            .mutateAsync(ip)
            .then(() => notifications.show({ color: 'teal', title: 'Unbanned', message: `${ip} is no longer banned.` }))
        }
      />
      <ConfirmDialog
        dialog={unbanningSelected}
        title={(ips) => `Unban ${plural(ips.length, 'address', 'addresses')}?`}
        message={(ips) =>
          `${listed(ips)} can reach this PBX again at once, and bouncers remove the blocks on their next poll.`
        }
        confirmLabel={`Unban ${plural(unbanningSelected.target?.length ?? 0, 'address', 'addresses')}`}
        loading={unbanMany.isPending}
        onConfirm={(ips) =>
          unbanMany.mutateAsync(ips).then(() => {
            setSelected(new Set());
            notifications.show({
              color: 'teal',
              title: 'Unbanned',
              message: `${plural(ips.length, 'address is', 'addresses are')} no longer banned.`,
            });
          })
        }
      />
    </>
  );
}
