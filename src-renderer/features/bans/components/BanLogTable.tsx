import { Text } from '@mantine/core';
import { FilterSelect } from '../../../components/FilterSelect.tsx';
import { OptionalText } from '../../../components/OptionalText.tsx';
import { ServerPagedTable } from '../../../components/ServerPagedTable.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useServerPaging } from '../../../lib/use-server-paging.ts';
import { BAN_CATEGORIES } from '../api/categories.ts';
import { useBanLog, type BanLogEntry, type BanLogFilter, type BanLogState } from '../api/get-ban-log.ts';
import { BanNumber } from './BanNumber.tsx';
import { CategoryCell, WholeBadge } from './CategoryBadge.tsx';

const PAGE_SIZE = 25;

const STATES: { value: BanLogState; label: string; color: string }[] = [
  { value: 'active', label: 'Active', color: 'red' },
  { value: 'expired', label: 'Expired', color: 'gray' },
  { value: 'lifted', label: 'Lifted', color: 'teal' },
];

const stateOf = (state: string) => STATES.find((s) => s.value === state);

/** When a ban ends: its end, "Permanent" for one still in force without an end. */
const endText = (entry: BanLogEntry) => (entry.endsAt === null ? 'Permanent' : formatDateTime(entry.endsAt));

/**
 * Every ban, newest first, searched, filtered and paged on the server: when it started and ended,
 * who banned it and who lifted it.
 */
export function BanLogTable() {
  const paging = useServerPaging(PAGE_SIZE, {
    category: '' as BanLogFilter['category'],
    state: '' as '' | BanLogState,
  });
  const log = useBanLog({ search: paging.debounced, ...paging.filters, limit: PAGE_SIZE, offset: paging.offset });

  return (
    <ServerPagedTable
      label="Ban history"
      noun="ban history"
      query={log}
      row={{ label: (entry) => entry.ip, testId: 'ban-log-row' }}
      minWidth={1040}
      paging={paging}
      searchPlaceholder="Address or reason"
      searchWidth={260}
      filters={
        <>
          <FilterSelect
            label="Category"
            every="All categories"
            options={BAN_CATEGORIES}
            {...paging.bind('category')}
            width={180}
          />
          <FilterSelect label="State" every="Any state" options={STATES} {...paging.bind('state')} width={160} />
        </>
      }
      columns={[
        { header: 'Address', mono: true, card: 'title', render: (entry) => entry.ip },
        {
          header: 'Category',
          render: (entry) => (
            <CategoryCell category={entry.category}>
              <Text size="xs" c="dimmed" ff="monospace">
                {entry.scenario}
              </Text>
            </CategoryCell>
          ),
        },
        { header: 'Ban', render: (entry) => <BanNumber category={entry.category} banNumber={entry.banNumber} /> },
        { header: 'Reason', render: (entry) => <OptionalText value={entry.reason} /> },
        { header: 'Start', render: (entry) => formatDateTime(entry.bannedAt) },
        { header: 'End', render: (entry) => endText(entry) },
        {
          header: 'State',
          render: (entry) => (
            <WholeBadge color={stateOf(entry.state)?.color ?? 'gray'}>
              {stateOf(entry.state)?.label ?? entry.state}
            </WholeBadge>
          ),
        },
        // Automatic bans name nobody: they come from the failure thresholds (Settings).
        { header: 'Banned by', render: (entry) => <OptionalText value={entry.bannedBy} fallback="Automatic" /> },
        { header: 'Lifted by', render: (entry) => <OptionalText value={entry.liftedBy} /> },
      ]}
      empty={
        paging.filtered
          ? { title: 'No ban matches the filters', hint: 'Change the search, the category or the state.' }
          : {
              title: 'No bans yet',
              hint: 'Every ban, automatic or manual, is recorded here with its end and who lifted it.',
            }
      }
    />
  );
}
