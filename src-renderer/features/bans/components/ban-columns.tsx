import { Text } from '@mantine/core';
import { IconLockOpen, IconShieldCheck } from '@tabler/icons-react';
import type { DataTableColumn } from '../../../components/DataTable.tsx';
import type { RowAction } from '../../../components/RowActionsMenu.tsx';
import { OptionalText } from '../../../components/OptionalText.tsx';
import { formatDateTime, formatDuration, toMillis } from '../../../lib/format.ts';
import { useSharedNow } from '../../../lib/use-now.ts';
import { BAN_SERVICES } from '../api/categories.ts';
import type { BannedIp } from '../api/get-banned-ips.ts';
import { BanNumber } from './BanNumber.tsx';
import { CategoryCell } from './CategoryBadge.tsx';
import { DeliveryCell } from './DeliveryCell.tsx';
import { EscalatedMark } from './EscalatedMark.tsx';

const isPermanent = (ban: BannedIp) => ban.permanent === true || ban.secondsLeft === null;

/** Seconds left now, from expiresAt (the answer's secondsLeft if it cannot be read). */
function secondsLeft(ban: BannedIp, now: number): number {
  const expires = toMillis(ban.expiresAt);
  return Math.max(0, expires === null ? (ban.secondsLeft ?? 0) : (expires - now) / 1000);
}

/** A row's live countdown: only these cells re-render every second. */
function TimeLeft({ ban }: { ban: BannedIp }) {
  const now = useSharedNow();
  return (
    <Text span size="sm" ff="monospace" data-testid="ban-time-left">
      {isPermanent(ban) ? 'Permanent' : formatDuration(secondsLeft(ban, now))}
    </Text>
  );
}

/** The services a ban refuses the address on: every one unless a manual ban chose some. */
const refusedOn = (ban: BannedIp) =>
  ban.services && ban.services.length < BAN_SERVICES.length ? ban.services.join(', ') : 'All services';

/** When the ban ends, in the console's one date format. */
const until = (ban: BannedIp) => (isPermanent(ban) || !ban.expiresAt ? 'Permanent' : formatDateTime(ban.expiresAt));

/** The Bans table's columns: one array for every render, so unchanged rows are not drawn again. */
export const BAN_COLUMNS: DataTableColumn<BannedIp>[] = [
  { header: 'IP address', mono: true, card: 'title', render: (ban) => ban.ip },
  {
    header: 'Category',
    render: (ban) => (
      <CategoryCell category={ban.category}>
        {ban.category !== 'manual' && <BanNumber category={ban.category} banNumber={ban.banNumber} />}
        <EscalatedMark escalatedFrom={ban.escalatedFrom} />
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
    header: 'Until',
    render: (ban) => (
      <Text size="sm" data-testid="ban-until">
        {until(ban)}
      </Text>
    ),
  },
  { header: 'Time left', mono: true, render: (ban) => <TimeLeft ban={ban} /> },
  {
    header: 'Refused on',
    render: (ban) => (
      <Text size="sm" data-testid="ban-refused-on">
        {refusedOn(ban)}
      </Text>
    ),
  },
  { header: 'Delivered', render: (ban) => <DeliveryCell delivery={ban.delivery} subject={ban.ip} /> },
];

/** A row's actions: Unban (not for an upstream decision: the LAPI would send it back), and Unban and whitelist. */
export const banActions =
  (onUnban: (ip: string) => void, onWhitelist: (ip: string) => void) =>
  (ban: BannedIp): RowAction[] => [
    ...(ban.upstream ? [] : [{ label: 'Unban', icon: <IconLockOpen size={14} />, onClick: () => onUnban(ban.ip) }]),
    {
      label: 'Unban and whitelist…',
      shortLabel: 'Whitelist…',
      icon: <IconShieldCheck size={14} />,
      onClick: () => onWhitelist(ban.ip),
    },
  ];
