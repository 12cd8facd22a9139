import { Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { ActionButtons } from './RowActions.tsx';
import { SelectRowCheckbox } from './SelectCheckboxes.tsx';
import type { DataTableState } from './use-data-table.ts';
import type { DataTableColumn, DataTableSelection, ResolvedRowOptions } from './types.ts';

/** A card's title: the row's title column, wrapped anywhere so long addresses fit a phone. */
function CardTitle<T>({ column, row }: { column: DataTableColumn<T>; row: T }) {
  return (
    <Box ff={column.mono ? 'monospace' : undefined} fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
      {column.render(row)}
    </Box>
  );
}

/** One column's value in a card: its header as the term, the value below it. */
function CardValue<T>({ column, row }: { column: DataTableColumn<T>; row: T }) {
  return (
    <Box style={{ minWidth: 0, gridColumn: column.card === 'wide' ? '1 / -1' : undefined }}>
      <Text component="dt" size="xs" c="dimmed" fw={600}>
        {column.header}
      </Text>
      <Box component="dd" m={0} fz="sm" ff={column.mono ? 'monospace' : undefined} style={{ overflowWrap: 'anywhere' }}>
        {column.render(row)}
      </Box>
    </Box>
  );
}

/** The narrow screen's list: one card per shown record, every action a visible button. */
export function CardView<T>({
  label,
  columns,
  row,
  table,
  selection,
}: {
  label: string;
  columns: DataTableColumn<T>[];
  row: ResolvedRowOptions<T>;
  table: DataTableState<T>;
  selection?: DataTableSelection;
}) {
  const titleColumn = columns.find((c) => c.card === 'title');
  const cardColumns = columns.filter((c) => c !== titleColumn && c.card !== 'hidden');
  // A title and one value, no actions (a list of addresses): one line per card.
  const compact = titleColumn !== undefined && cardColumns.length <= 1 && !row.actions;
  return (
    <Stack component="ul" gap={compact ? 'xs' : 'sm'} aria-label={label} m={0} p={0} style={{ listStyle: 'none' }}>
      {table.shown.map((record) => {
        const key = row.key(record);
        if (compact) {
          return (
            <Paper component="li" key={key} withBorder radius="md" px="sm" py="xs" data-testid={row.testId}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <CardTitle column={titleColumn} row={record} />
                {cardColumns[0] && <Box fz="sm">{cardColumns[0].render(record)}</Box>}
              </Group>
            </Paper>
          );
        }
        const actions = row.actions?.(record) ?? [];
        return (
          <Paper component="li" key={key} withBorder radius="md" p="sm" data-testid={row.testId}>
            {titleColumn && (
              <Group mb="xs" gap="sm" wrap="nowrap" align="flex-start">
                {selection && (
                  <SelectRowCheckbox
                    rowKey={key}
                    label={row.label(record)}
                    selected={selection.selected.has(key)}
                    onToggle={table.toggleRow}
                  />
                )}
                <CardTitle column={titleColumn} row={record} />
              </Group>
            )}
            <SimpleGrid component="dl" cols={2} spacing="sm" verticalSpacing="xs" m={0}>
              {cardColumns.map((c) => (
                <CardValue key={c.header} column={c} row={record} />
              ))}
            </SimpleGrid>
            {actions.length > 0 && (
              <Group gap="xs" mt="sm">
                <ActionButtons actions={actions} rowLabel={row.label(record)} />
              </Group>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}
