import { Box, Button, Card, Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useNarrowScreen } from '../lib/use-narrow-screen.ts';
import { CardView } from './data-table/CardView.tsx';
import { SelectShownCheckbox } from './data-table/SelectCheckboxes.tsx';
import { TableView } from './data-table/TableView.tsx';
import type {
  DataTableColumn,
  DataTableFrame,
  DataTableRowOptions,
  DataTableSearch,
  DataTableSelection,
} from './data-table/types.ts';
import { useDataTable } from './data-table/use-data-table.ts';
import { QueryState, type EmptyContent, type QueryLike } from './QueryState.tsx';

export type { DataTableColumn } from './data-table/types.ts';

/** Where the rows come from: the list the query loads, or rows the caller derives from its query. */
type RowsSource<T> =
  | { query: QueryLike & { data?: readonly T[] }; rows?: undefined }
  | { query: QueryLike; rows: readonly T[] };

/** A record with an id is keyed by it unless told otherwise; any other row needs `row.key`. */
type RowOptionsSource<T> = T extends { id: string | number }
  ? { row?: DataTableRowOptions<T> }
  : { row: DataTableRowOptions<T> & { key: (row: T) => string } };

interface DataTableOptions<T> {
  /** The table's accessible name, e.g. "API keys". */
  label: string;
  /** What the rows are, in "Loading …" and "Select all … shown" (defaults to the label). */
  noun?: string;
  columns: DataTableColumn<T>[];
  search?: DataTableSearch<T>;
  /** A checkbox per row ("Select <row>") and one for every shown row, for bulk actions in the toolbar. */
  selection?: DataTableSelection;
  /** What an empty list says (a search that matches nothing says so on its own). */
  empty: EmptyContent;
  frame?: DataTableFrame;
}

export type DataTableProps<T> = DataTableOptions<T> & RowsSource<T> & RowOptionsSource<T>;

const byId = (row: unknown) => String((row as { id: string | number }).id);

/**
 * The console's list of records: columns, row actions, a search box, loading, error and empty states
 * (QueryState), and, on a narrow screen, one card per row with every action visible.
 */
export function DataTable<T>(props: DataTableProps<T>): ReactNode;
export function DataTable<T>({
  label,
  noun = label,
  query,
  rows: givenRows,
  columns,
  row: rowOptions,
  search,
  selection,
  empty,
  frame: { card = true, minWidth = 640, toolbar, footer } = {},
}: DataTableOptions<T> & RowsSource<T> & { row?: DataTableRowOptions<T> }) {
  // Without given rows, the query's data is the list (RowsSource types it so).
  const rows = givenRows ?? (query as { data?: readonly T[] }).data ?? [];
  const key = rowOptions?.key ?? byId;
  const row = { ...rowOptions, key, label: rowOptions?.label ?? key };
  const table = useDataTable({ rows, rowKey: key, search, selection });
  // On a phone each row is a card, with every action a visible button.
  const asCards = useNarrowScreen();

  const body = (
    <>
      {(toolbar || search) && (
        <Group justify="space-between" align="flex-end" mb="md" gap="sm" wrap="wrap">
          {toolbar ?? <span />}
          {selection && asCards && table.shown.length > 0 && (
            <Box w="100%">
              <SelectShownCheckbox
                noun={noun}
                state={table.shownSelected}
                shownCount={table.shown.length}
                visibleLabel
                onToggle={table.toggleShown}
              />
            </Box>
          )}
          {search && (
            <TextInput
              aria-label={search.label}
              placeholder={search.placeholder ?? 'Search'}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={table.term}
              onChange={(event) => table.setTerm(event.currentTarget.value)}
              w={{ base: '100%', xs: 260 }}
              type="search"
            />
          )}
        </Group>
      )}
      <QueryState
        query={query}
        label={noun}
        isEmpty={table.shown.length === 0}
        empty={
          rows.length === 0
            ? empty
            : {
                title: `No ${noun} match`,
                hint: 'Change or clear the search.',
                action: table.searching ? (
                  <Button mt="sm" variant="light" onClick={() => table.setTerm('')}>
                    Clear the search
                  </Button>
                ) : undefined,
              }
        }
      >
        {asCards ? (
          <CardView label={label} columns={columns} row={row} table={table} selection={selection} />
        ) : (
          <TableView
            label={label}
            noun={noun}
            columns={columns}
            row={row}
            table={table}
            selection={selection}
            minWidth={minWidth}
          />
        )}
      </QueryState>
      {footer}
    </>
  );

  if (!card || asCards) return <Box>{body}</Box>;
  return (
    <Card withBorder radius="md" padding="lg">
      {body}
    </Card>
  );
}
