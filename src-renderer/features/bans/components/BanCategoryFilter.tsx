import { NativeSelect, SegmentedControl } from '@mantine/core';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { BAN_CATEGORIES, UPSTREAM_CATEGORY } from '../api/categories.ts';
import type { BanCounts, BannedIpsFilter } from '../api/get-banned-ips.ts';

type Category = BannedIpsFilter['category'];

const count = (n: number | undefined) => (n ?? 0).toLocaleString('en-US');

/**
 * The category picker of the active bans, each choice with how many bans match the search in it
 * (counted on the server): "All (100,000)", "SIP (3)"... Upstream shows only when there are any.
 */
export function BanCategoryFilter({
  value,
  onChange,
  counts,
}: {
  value: Category;
  onChange: (value: Category) => void;
  counts: BanCounts | undefined;
}) {
  const narrow = useNarrowScreen();
  const upstream = counts?.categories.upstream ?? 0;
  const data = [
    { value: '', label: `All (${count(counts?.total)})` },
    ...BAN_CATEGORIES.map((c) => ({ value: c.value, label: `${c.label} (${count(counts?.categories[c.value])})` })),
    ...(upstream || value === UPSTREAM_CATEGORY.value
      ? [{ value: UPSTREAM_CATEGORY.value, label: `${UPSTREAM_CATEGORY.label} (${count(upstream)})` }]
      : []),
  ];
  const choose = (next: string) => onChange(next as Category);
  // Seven choices do not fit a phone's width as segments.
  return narrow ? (
    <NativeSelect
      aria-label="Category"
      value={value}
      onChange={(event) => choose(event.currentTarget.value)}
      data={data}
      w="100%"
    />
  ) : (
    <SegmentedControl aria-label="Category" value={value} onChange={choose} data={data} />
  );
}
