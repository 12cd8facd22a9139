import { Alert, List, Stack, Table, Text } from '@mantine/core';
import type { ImportOutcome } from '../api/import-bans.ts';

/** The preview lists at most this many changes and warnings. */
const SHOWN_CHANGES = 50;

/** What a dry run would do, or an import did: the counts, the never-banned warnings and the changes by line. */
export function ImportOutcomeSummary({ outcome }: { outcome: ImportOutcome }) {
  return (
    <Stack gap="xs" data-testid="import-outcome">
      <Text size="sm">
        {outcome.dryRun ? 'Would import' : 'Imported'}: <b>{outcome.added}</b> new, <b>{outcome.extended}</b> extended,{' '}
        {outcome.unchanged} already banned for longer, {outcome.merged} duplicate entries merged ({outcome.entries}{' '}
        entries read).
      </Text>
      {outcome.warnings.length > 0 && (
        // Never-banned values (whitelisted, trusted, loopback, unspecified): skipped, or ranges carved around them.
        <Alert
          color="yellow"
          variant="light"
          title="Never banned: skipped or carved around"
          data-testid="import-warnings"
        >
          <List size="xs">
            {outcome.warnings.slice(0, SHOWN_CHANGES).map((warning) => (
              <List.Item key={warning}>{warning}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {outcome.changes.length > 0 && (
        <Table withTableBorder striped fz="xs" aria-label="Changes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Address or network</Table.Th>
              <Table.Th>Change</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th>Line</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {outcome.changes.slice(0, SHOWN_CHANGES).map((change) => (
              <Table.Tr key={change.value}>
                <Table.Td>{change.value}</Table.Td>
                <Table.Td>{change.action === 'add' ? 'new ban' : 'longer ban'}</Table.Td>
                <Table.Td>{change.duration}</Table.Td>
                <Table.Td>{change.lines.join(', ')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {outcome.changes.length > SHOWN_CHANGES && (
        <Text size="xs" c="dimmed">
          …and {outcome.added + outcome.extended - SHOWN_CHANGES} more.
        </Text>
      )}
    </Stack>
  );
}
