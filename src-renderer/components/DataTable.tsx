import {
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { memo, useCallback, useState, type ReactNode } from 'react';
import { useNarrowScreen } from '../lib/use-narrow-screen.ts';
import { QueryState, type EmptyContent, type QueryLike } from './QueryState.tsx';
import { RowActionsMenu, type RowAction } from './RowActionsMenu.tsx';

export interface DataTableColumn<T> {
  /** The column header, and the label of the value in a card. */
  header: string;
  render: (row: T) => ReactNode;
  /** Addresses, keys and counters read better in monospace. */
  mono?: boolean;
  /** In a card: `title` heads the card (one column), `wide` spans the card's width, `hidden` is left out. */
  card?: 'title' | 'wide' | 'hidden';
}

export interface DataTableSearch<T> {
  /** The search box's accessible name, e.g. "Filter by IP address". */
  label: string;
  placeholder?: string;
  /** The text a row is searched in (case-insensitive). */
  text: (row: T) => string;
}

/** Rows the operator ticks for a bulk action, by rowKey. */
export interface DataTableSelection {
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}

/** Where the rows come from: the list the query loads, or rows the caller derives from its query. */
type RowsSource<T> =
  | { query: QueryLike & { data?: readonly T[] }; rows?: undefined }
  | { query: QueryLike; rows: readonly T[] };

/** A row's key: a record with an id is keyed by it unless told otherwise; any other row needs one. */
type RowKeySource<T> = T extends { id: string | number }
  ? { rowKey?: (row: T) => string }
  : { rowKey: (row: T) => string };

export type DataTableProps<T> = DataTableOptions<T> & RowsSource<T> & RowKeySource<T>;

const byId = (row: unknown) => String((row as { id: string | number }).id);

interface DataTableOptions<T> {
  /** The table's accessible name, e.g. "API keys". */
  label: string;
  /** What the rows are, in "Loading …" (defaults to the label). */
  noun?: string;
  columns: DataTableColumn<T>[];
  /** Names the row for screen readers: "Actions for <row>", "Unban <row>". */
  rowLabel?: (row: T) => string;
  actions?: (row: T) => RowAction[];
  search?: DataTableSearch<T>;
  /** A filter set outside the search box (a category picker); rows it leaves out count as "no match". */
  filter?: (row: T) => boolean;
  /** What an empty list says, and what a search or filter that matches nothing says. */
  empty: EmptyContent;
  noMatch?: EmptyContent;
  /** Controls beside the search box (a category picker). */
  toolbar?: ReactNode;
  footer?: ReactNode;
  /** Below this width the table scrolls sideways; the actions column stays in view. */
  minWidth?: number;
  rowTestId?: string;
  /** Draw the table in its own bordered card (default), or inside a card the caller already has. */
  withCard?: boolean;
  /** A checkbox per row ("Select <row>") and one for every shown row, for bulk actions in the toolbar. */
  selection?: DataTableSelection;
  /** Every row action as its own button, never a "…" menu (a few actions used on most rows). */
  inlineActions?: boolean;
}

/** Screen-reader name of an action button of a row: "Unban 192.0.2.1". */
const actionName = (action: RowAction, rowLabel: string) => `${action.label.replace(/…$/, '')} ${rowLabel}`;

/** One button per action, each named for screen readers with the row it acts on. */
function ActionButtons({ actions, rowLabel, short }: { actions: RowAction[]; rowLabel: string; short?: boolean }) {
  return actions.map((action) => (
    <Button
      key={action.label}
      size="xs"
      variant="light"
      color={action.color}
      leftSection={action.icon}
      onClick={action.onClick}
      aria-label={actionName(action, rowLabel)}
    >
      {short ? (action.shortLabel ?? action.label) : action.label}
    </Button>
  ));
}

function ActionsCell({ actions, rowLabel, inline }: { actions: RowAction[]; rowLabel: string; inline?: boolean }) {
  if (actions.length === 0) return null;
  if (actions.length > 1 && !inline) return <RowActionsMenu rowLabel={rowLabel} actions={actions} />;
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <ActionButtons actions={actions} rowLabel={rowLabel} short={inline} />
    </Group>
  );
}

interface TableRowProps<T> {
  row: T;
  rowKey: string;
  label: string;
  columns: DataTableColumn<T>[];
  actions?: (row: T) => RowAction[];
  inlineActions?: boolean;
  testId?: string;
  /** Whether the row has a tick box, and whether it is ticked. */
  selectable: boolean;
  selected: boolean;
  onToggle: (key: string, on: boolean) => void;
}

/**
 * One row of the wide table. Memoized: a re-render with the same row, columns and actions (a page
 * kept on screen while the next one loads, a search handed over) skips it, when the caller keeps
 * its columns and actions stable (the Bans table does; others re-render as before).
 */
const TableRow = memo(function TableRow<T>({
  row,
  rowKey,
  label,
  columns,
  actions,
  inlineActions,
  testId,
  selectable,
  selected,
  onToggle,
}: TableRowProps<T>) {
  return (
    <Table.Tr data-testid={testId}>
      {selectable && (
        <Table.Td>
          <Checkbox
            aria-label={`Select ${label}`}
            checked={selected}
            onChange={(event) => onToggle(rowKey, event.currentTarget.checked)}
          />
        </Table.Td>
      )}
      {columns.map((c) => (
        <Table.Td key={c.header} ff={c.mono ? 'monospace' : undefined}>
          {c.render(row)}
        </Table.Td>
      ))}
      {actions && (
        // Sticky: when the table scrolls sideways, the row's actions stay on screen.
        <Table.Td ta="right" style={{ position: 'sticky', right: 0, background: 'var(--mantine-color-body)' }}>
          <ActionsCell actions={actions(row)} rowLabel={label} inline={inlineActions} />
        </Table.Td>
      )}
    </Table.Tr>
  );
}) as <T>(props: TableRowProps<T>) => ReactNode;

/** A card's title: the row's title column, wrapped anywhere so long addresses fit a phone. */
function CardTitle<T>({ column, row }: { column: DataTableColumn<T>; row: T }) {
  return (
    <Box ff={column.mono ? 'monospace' : undefined} fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
      {column.render(row)}
    </Box>
  );
}

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
  rowKey = byId,
  columns,
  rowLabel = rowKey,
  actions,
  search,
  filter,
  empty,
  noMatch,
  toolbar,
  footer,
  minWidth = 640,
  rowTestId,
  withCard = true,
  selection,
  inlineActions,
}: DataTableOptions<T> & RowsSource<T> & { rowKey?: (row: T) => string }) {
  // Without given rows, the query's data is the list (RowsSource types it so).
  const rows = givenRows ?? (query as { data?: readonly T[] }).data ?? [];
  // On a phone each row is a card, with every action a visible button.
  const asCards = useNarrowScreen();
  const [term, setTerm] = useState('');
  const needle = term.trim().toLowerCase();
  const shown = rows.filter(
    (row) => (!filter || filter(row)) && (!search || !needle || search.text(row).toLowerCase().includes(needle)),
  );
  const titleColumn = columns.find((c) => c.card === 'title');
  const shownKeys = shown.map(rowKey);
  const selectedShown = selection ? shownKeys.filter((key) => selection.selected.has(key)).length : 0;
  // Stable while the selection is: the memoized rows keep their props.
  const toggleRow = useCallback(
    (key: string, on: boolean) => {
      if (!selection) return;
      const next = new Set(selection.selected);
      if (on) next.add(key);
      else next.delete(key);
      selection.onChange(next);
    },
    [selection],
  );
  const toggleShown = (on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const key of shownKeys) {
      if (on) next.add(key);
      else next.delete(key);
    }
    selection.onChange(next);
  };
  const rowCheckbox = (row: T) =>
    selection && (
      <Checkbox
        aria-label={`Select ${rowLabel(row)}`}
        checked={selection.selected.has(rowKey(row))}
        onChange={(event) => toggleRow(rowKey(row), event.currentTarget.checked)}
      />
    );
  // In the table header it is named for screen readers; above the cards it has a visible label.
  const selectShown = (visibleLabel: boolean) =>
    selection && (
      <Checkbox
        aria-label={visibleLabel ? undefined : `Select all ${noun} shown`}
        label={visibleLabel ? `Select all ${noun} shown` : undefined}
        checked={shown.length > 0 && selectedShown === shown.length}
        indeterminate={selectedShown > 0 && selectedShown < shown.length}
        disabled={shown.length === 0}
        onChange={(event) => toggleShown(event.currentTarget.checked)}
      />
    );

  const table = (
    // A table wider than the screen scrolls sideways: its viewport takes keyboard focus so arrow keys reach the hidden columns.
    <Table.ScrollContainer
      minWidth={minWidth}
      scrollAreaProps={{
        viewportProps: {
          tabIndex: 0,
          role: 'region',
          'aria-label': `${label} (scrolls sideways)`,
        } as React.ComponentProps<'div'>,
      }}
    >
      <Table highlightOnHover verticalSpacing="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {selection && <Table.Th w={40}>{selectShown(false)}</Table.Th>}
            {columns.map((c) => (
              <Table.Th key={c.header}>{c.header}</Table.Th>
            ))}
            {actions && (
              <Table.Th style={{ position: 'sticky', right: 0 }}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((row) => (
            <TableRow
              key={rowKey(row)}
              row={row}
              rowKey={rowKey(row)}
              label={rowLabel(row)}
              columns={columns}
              actions={actions}
              inlineActions={inlineActions}
              testId={rowTestId}
              selectable={Boolean(selection)}
              selected={selection?.selected.has(rowKey(row)) ?? false}
              onToggle={toggleRow}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );

  const cardColumns = columns.filter((c) => c !== titleColumn && c.card !== 'hidden');
  // A title and one value, no actions (a list of addresses): one line per card.
  const compact = titleColumn !== undefined && cardColumns.length <= 1 && !actions;
  const cards = (
    <Stack component="ul" gap={compact ? 'xs' : 'sm'} aria-label={label} m={0} p={0} style={{ listStyle: 'none' }}>
      {shown.map((row) => {
        const rowActions = actions?.(row) ?? [];
        if (compact) {
          return (
            <Paper component="li" key={rowKey(row)} withBorder radius="md" px="sm" py="xs" data-testid={rowTestId}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <CardTitle column={titleColumn} row={row} />
                {cardColumns[0] && <Box fz="sm">{cardColumns[0].render(row)}</Box>}
              </Group>
            </Paper>
          );
        }
        return (
          <Paper component="li" key={rowKey(row)} withBorder radius="md" p="sm" data-testid={rowTestId}>
            {titleColumn && (
              <Group mb="xs" gap="sm" wrap="nowrap" align="flex-start">
                {rowCheckbox(row)}
                <CardTitle column={titleColumn} row={row} />
              </Group>
            )}
            <SimpleGrid component="dl" cols={2} spacing="sm" verticalSpacing="xs" m={0}>
              {cardColumns.map((c) => (
                <Box key={c.header} style={{ minWidth: 0, gridColumn: c.card === 'wide' ? '1 / -1' : undefined }}>
                  <Text component="dt" size="xs" c="dimmed" fw={600}>
                    {c.header}
                  </Text>
                  <Box
                    component="dd"
                    m={0}
                    fz="sm"
                    ff={c.mono ? 'monospace' : undefined}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {c.render(row)}
                  </Box>
                </Box>
              ))}
            </SimpleGrid>
            {rowActions.length > 0 && (
              <Group gap="xs" mt="sm">
                <ActionButtons actions={rowActions} rowLabel={rowLabel(row)} />
              </Group>
            )}
          </Paper>
        );
      })}
    </Stack>
  );

  const body = (
    <>
      {(toolbar || search) && (
        <Group justify="space-between" align="flex-end" mb="md" gap="sm" wrap="wrap">
          {toolbar ?? <span />}
          {selection && asCards && shown.length > 0 && <Box w="100%">{selectShown(true)}</Box>}
          {search && (
            <TextInput
              aria-label={search.label}
              placeholder={search.placeholder ?? 'Search'}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={term}
              onChange={(event) => setTerm(event.currentTarget.value)}
              w={{ base: '100%', xs: 260 }}
              type="search"
            />
          )}
        </Group>
      )}
      <QueryState
        query={query}
        label={noun}
        isEmpty={shown.length === 0}
        empty={
          rows.length === 0
            ? empty
            : (noMatch ?? {
                title: `No ${noun} match`,
                hint: 'Change or clear the search.',
                action: needle ? (
                  <Button mt="sm" variant="light" onClick={() => setTerm('')}>
                    Clear the search
                  </Button>
                ) : undefined,
              })
        }
      >
        {asCards ? cards : table}
      </QueryState>
      {footer}
    </>
  );

  if (!withCard || asCards) return <Box>{body}</Box>;
  return (
    <Card withBorder radius="md" padding="lg">
      {body}
    </Card>
  );
}
