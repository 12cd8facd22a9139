import { Badge, Box, Card, Code, Group, Text, Title } from '@mantine/core';
import { DataTable } from '../../../components/DataTable.tsx';
import { plural } from '../../../lib/format.ts';
import { useFail2ban } from '../api/fail2ban-settings.ts';
import { useEffectiveWhitelist } from '../api/get-effective-whitelist.ts';

/** The whitelist exactly as bouncers get it from /v1/whitelist: this list plus trusted network filters. */
export function EffectiveWhitelist() {
  const list = useEffectiveWhitelist();
  const fail2ban = useFail2ban();
  const entries = list.data ?? [];
  // Where an entry comes from: the list on the left, or a network filter marked trusted.
  const fromWhitelist = new Set([
    ...(fail2ban.data?.whitelist ?? '').split(/[\s,]+/).filter(Boolean),
    ...(fail2ban.data?.whitelistEntries ?? []).map((e) => e.value),
  ]);
  const source = (entry: string) => (fail2ban.data ? (fromWhitelist.has(entry) ? 'Whitelist' : 'Trusted filter') : '—');
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="effective-whitelist-title">
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h4" id="effective-whitelist-title">
          Effective whitelist
        </Title>
        <Badge variant="light">{plural(entries.length, 'entry', 'entries')}</Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        What bouncers receive from <Code>/v1/whitelist</Code>: the whitelist above plus every network filter marked
        trusted.
      </Text>
      <Box data-testid="effective-whitelist">
        <DataTable<{ entry: string; index: number }>
          label="Effective whitelist entries"
          noun="entries"
          frame={{ card: false, minWidth: 280 }}
          query={list}
          rows={entries.map((entry, index) => ({ entry, index }))}
          row={{ key: (row) => `${row.entry}-${row.index}`, label: (row) => row.entry }}
          search={{
            label: 'Search the effective whitelist',
            placeholder: 'Search address or network',
            text: (row) => `${row.entry} ${source(row.entry)}`,
          }}
          columns={[
            {
              header: 'Address or network',
              card: 'title',
              render: (row) => (
                <Text ff="monospace" size="sm" fw={500} data-entry>
                  {row.entry}
                </Text>
              ),
            },
            {
              header: 'Source',
              render: (row) =>
                fail2ban.data ? (
                  <Badge size="sm" variant="light" color={fromWhitelist.has(row.entry) ? 'gray' : 'blue'}>
                    {source(row.entry)}
                  </Badge>
                ) : (
                  '—'
                ),
            },
          ]}
          empty={{ title: 'The whitelist is empty', hint: 'No address is exempt from bans.' }}
        />
      </Box>
    </Card>
  );
}
