import { Table, VisuallyHidden } from '@mantine/core';
import { memo, type ComponentProps, type ReactNode } from 'react';
import type { RowAction } from '../RowActionsMenu.tsx';
import { ActionsCell } from './RowActions.tsx';
import { SelectRowCheckbox, SelectShownCheckbox } from './SelectCheckboxes.tsx';
import type { DataTableState } from './use-data-table.ts';
import type { DataTableColumn, DataTableSelection, ResolvedRowOptions } from './types.ts';

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
          <SelectRowCheckbox rowKey={rowKey} label={label} selected={selected} onToggle={onToggle} />
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

/** The wide screen's table: a header row, then one memoized row per shown record. */
export function TableView<T>({
  label,
  noun,
  columns,
  row,
  table,
  selection,
  minWidth,
}: {
  label: string;
  noun: string;
  columns: DataTableColumn<T>[];
  row: ResolvedRowOptions<T>;
  table: DataTableState<T>;
  selection?: DataTableSelection;
  minWidth: number;
}) {
  return (
    // A table wider than the screen scrolls sideways: its viewport takes keyboard focus so arrow keys reach the hidden columns.
    <Table.ScrollContainer
      minWidth={minWidth}
      scrollAreaProps={{
        viewportProps: {
          tabIndex: 0,
          role: 'region',
          'aria-label': `${label} (scrolls sideways)`,
        } as ComponentProps<'div'>,
      }}
    >
      <Table highlightOnHover verticalSpacing="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {selection && (
              <Table.Th w={40}>
                <SelectShownCheckbox
                  noun={noun}
                  state={table.shownSelected}
                  shownCount={table.shown.length}
                  visibleLabel={false}
                  onToggle={table.toggleShown}
                />
              </Table.Th>
            )}
            {columns.map((c) => (
              <Table.Th key={c.header}>{c.header}</Table.Th>
            ))}
            {row.actions && (
              <Table.Th style={{ position: 'sticky', right: 0 }}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {table.shown.map((record) => (
            <TableRow
              key={row.key(record)}
              row={record}
              rowKey={row.key(record)}
              label={row.label(record)}
              columns={columns}
              actions={row.actions}
              inlineActions={row.inlineActions}
              testId={row.testId}
              selectable={Boolean(selection)}
              selected={selection?.selected.has(row.key(record)) ?? false}
              onToggle={table.toggleRow}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
