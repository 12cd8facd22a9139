import { Group } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ServerPaging } from '../lib/use-server-paging.ts';
import { DataTable, type DataTableProps } from './DataTable.tsx';
import type { QueryLike } from './QueryState.tsx';
import { ServerPageControls, ServerSearchField } from './ServerPaging.tsx';

/**
 * A log searched, filtered and paged on the server: the search box and the filters above the rows,
 * "1–25 of 80" with Previous/Next below them.
 */
export function ServerPagedTable<T>({
  query,
  paging,
  searchPlaceholder,
  searchWidth,
  filters,
  note,
  minWidth,
  ...table
}: Omit<DataTableProps<T>, 'query' | 'rows' | 'search' | 'frame'> & {
  /** One page of rows, and how many match on the server over every page. */
  query: QueryLike & { data?: { rows: T[]; total: number } };
  paging: ServerPaging;
  searchPlaceholder: string;
  searchWidth: number;
  /** The filters beside the search box (FilterSelect...), and any bulk action. */
  filters: ReactNode;
  /** A line under the page controls (how often the list refreshes...). */
  note?: ReactNode;
  /** Below this width the table scrolls sideways. */
  minWidth?: number;
}) {
  const rows = query.data?.rows ?? [];
  return (
    <DataTable
      {...table}
      query={query}
      rows={rows}
      frame={{
        minWidth,
        toolbar: (
          <Group gap="sm" align="flex-end" wrap="wrap" w="100%">
            <ServerSearchField
              placeholder={searchPlaceholder}
              onSearch={paging.setSearch}
              debounceMs={paging.debounceMs}
              width={searchWidth}
            />
            {filters}
          </Group>
        ),
        footer: (
          <>
            <ServerPageControls
              offset={paging.offset}
              pageSize={paging.pageSize}
              shown={rows.length}
              total={query.data?.total ?? 0}
              onOffset={paging.setOffset}
            />
            {note}
          </>
        ),
      }}
    />
  );
}
