import { Group, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { DataTable } from '../../../components/DataTable.tsx';
import { FilterSelect } from '../../../components/FilterSelect.tsx';
import { ServerPageControls, ServerSearchField } from '../../../components/ServerPaging.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { BAN_CATEGORIES } from '../api/categories.ts';
import { useBanLog, type BanLogEntry, type BanLogFilter, type BanLogState } from '../api/get-ban-log.ts';
import { BanNumber } from './BanNumber.tsx';
import { CategoryBadge, WholeBadge } from './CategoryBadge.tsx';

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
  const narrow = useNarrowScreen();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [category, setCategory] = useState<BanLogFilter['category']>('');
  const [state, setState] = useState<'' | BanLogState>('');
  const [offset, setOffset] = useState(0);
  const log = useBanLog({ search: debounced, category, state, limit: PAGE_SIZE, offset });
  const rows = log.data?.rows ?? [];
  const total = log.data?.total ?? 0;
  const filtered = Boolean(debounced.trim() || category || state);
  // A new filter starts again from the first page.
  const refilter =
    <V,>(set: (value: V) => void) =>
    (value: V) => {
      set(value);
      setOffset(0);
    };

  return (
    <DataTable
      label="Ban history"
      noun="ban history"
      query={log}
      rows={rows}
      rowKey={(entry) => String(entry.id)}
      rowLabel={(entry) => entry.ip}
      rowTestId="ban-log-row"
      minWidth={1040}
      toolbar={
        <Group gap="sm" align="flex-end" wrap="wrap" w="100%">
          <ServerSearchField
            placeholder="Address or reason"
            value={search}
            onChange={(value) => {
              setSearch(value);
              setOffset(0);
            }}
            width={narrow ? '100%' : 260}
          />
          <FilterSelect
            label="Category"
            every="All categories"
            options={BAN_CATEGORIES}
            value={category}
            onChange={refilter(setCategory)}
            width={narrow ? '100%' : 180}
          />
          <FilterSelect
            label="State"
            every="Any state"
            options={STATES}
            value={state}
            onChange={refilter(setState)}
            width={narrow ? '100%' : 160}
          />
        </Group>
      }
      columns={[
        { header: 'Address', mono: true, card: 'title', render: (entry) => entry.ip },
        {
          header: 'Category',
          render: (entry) => (
            <Stack gap={2} align="flex-start">
              <CategoryBadge category={entry.category} />
              <Text size="xs" c="dimmed" ff="monospace">
                {entry.scenario}
              </Text>
            </Stack>
          ),
        },
        { header: 'Ban', render: (entry) => <BanNumber category={entry.category} banNumber={entry.banNumber} /> },
        {
          header: 'Reason',
          render: (entry) => (
            <Text size="sm" c={entry.reason ? undefined : 'dimmed'}>
              {entry.reason || '—'}
            </Text>
          ),
        },
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
        {
          header: 'Banned by',
          // Automatic bans name nobody: they come from the failure thresholds (Settings).
          render: (entry) => (
            <Text size="sm" c={entry.bannedBy ? undefined : 'dimmed'}>
              {entry.bannedBy || 'Automatic'}
            </Text>
          ),
        },
        {
          header: 'Lifted by',
          render: (entry) => (
            <Text size="sm" c={entry.liftedBy ? undefined : 'dimmed'}>
              {entry.liftedBy ?? '—'}
            </Text>
          ),
        },
      ]}
      empty={
        filtered
          ? { title: 'No ban matches the filters', hint: 'Change the search, the category or the state.' }
          : {
              title: 'No bans yet',
              hint: 'Every ban, automatic or manual, is recorded here with its end and who lifted it.',
            }
      }
      footer={
        <ServerPageControls
          offset={offset}
          pageSize={PAGE_SIZE}
          shown={rows.length}
          total={total}
          onOffset={setOffset}
        />
      }
    />
  );
}
