import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLockOpen } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ServerPagedTable } from '../../../components/ServerPagedTable.tsx';
import { plural } from '../../../lib/format.ts';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { useServerPaging } from '../../../lib/use-server-paging.ts';
import { useBanCounts, useBannedIps, type BannedIp, type BannedIpsFilter } from '../api/get-banned-ips.ts';
import { useUnbanIp } from '../api/unban-ip.ts';
import { useUnbanIps } from '../api/unban-ips.ts';
import { BAN_COLUMNS, banActions } from './ban-columns.tsx';
import { BanCategoryFilter } from './BanCategoryFilter.tsx';
import { BanIpModal } from './BanIpModal.tsx';
import { UnbanAndWhitelistModal } from './UnbanAndWhitelistModal.tsx';

/** One page: what fits a screen, and a request the server answers in a few milliseconds at 100,000 bans. */
const PAGE_SIZE = 50;
/** A search costs the server a few milliseconds: it is sent after a short pause in typing. */
const SEARCH_DEBOUNCE_MS = 150;

/** The first addresses of a selection, and how many more. */
const listed = (ips: string[]) =>
  ips.length <= 8 ? ips.join(', ') : `${ips.slice(0, 8).join(', ')} and ${ips.length - 8} more`;

const rowKeyOf = (ban: BannedIp) => `${ban.category}-${ban.ip}`;
const rowLabelOf = (ban: BannedIp) => ban.ip;

/**
 * The active bans, automatic and manual, searched, filtered by category and paged on the server,
 * with a live countdown ("Permanent" for bans without an end): ban an address, unban one or a
 * selection of the page shown.
 */
export function BansTable({ banOpened, onBanClose }: { banOpened: boolean; onBanClose: () => void }) {
  const paging = useServerPaging(PAGE_SIZE, { category: '' as BannedIpsFilter['category'] }, SEARCH_DEBOUNCE_MS);
  const bans = useBannedIps({ search: paging.debounced, ...paging.filters, limit: PAGE_SIZE, offset: paging.offset });
  const counts = useBanCounts(paging.debounced);
  const unban = useUnbanIp();
  const unbanMany = useUnbanIps();
  const unbanning = useDialogTarget<string>();
  const unbanningSelected = useDialogTarget<string[]>();
  const narrow = useNarrowScreen();
  const [whitelisting, setWhitelisting] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  // Only rows of the page shown count: a ban that ended since it was ticked is not unbanned again. An
  // upstream decision is not lifted here (the LAPI would send it back): it is never unbanned.
  // Stable between renders, so the rows of a page kept on screen are not drawn again.
  const selection = useMemo(() => ({ selected, onChange: setSelected }), [selected]);
  const actions = useMemo(() => banActions(unbanning.open, setWhitelisting), [unbanning.open]);
  const rows = bans.data?.rows ?? [];
  const selectedIps = [
    ...new Set(rows.filter((ban) => selected.has(rowKeyOf(ban)) && !ban.upstream).map((ban) => ban.ip)),
  ];

  return (
    <>
      <ServerPagedTable
        label="Active bans"
        noun="bans"
        query={bans}
        row={{ key: rowKeyOf, label: rowLabelOf, testId: 'ban-row', actions, inlineActions: true }}
        minWidth={940}
        paging={paging}
        searchPlaceholder="Address, reason or who banned"
        searchWidth={260}
        selection={selection}
        filters={
          <>
            <BanCategoryFilter counts={counts.data} {...paging.bind('category')} />
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
          </>
        }
        columns={BAN_COLUMNS}
        empty={
          paging.filtered
            ? { title: 'No ban matches the filter', hint: 'Change the search or pick another category.' }
            : {
                title: 'No active bans',
                hint:
                  'Addresses that fail to authenticate too often (SIP, IAX, AMI or this web console) are ' +
                  'banned here automatically; "Ban an address" bans one yourself.',
              }
        }
        note={
          <Text size="xs" c="dimmed" mt="sm">
            Refreshed every 10 seconds. Automatic ban duration and thresholds are set in Settings.
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
