import { Badge, Card, Code, Group, List, Text, Title } from '@mantine/core';
import { QueryState } from '../../../components/QueryState.tsx';
import { useFail2ban } from '../api/fail2ban-settings.ts';
import { useEffectiveWhitelist, whitelistEntryText } from '../api/get-effective-whitelist.ts';

/** The whitelist exactly as bouncers get it from /v1/whitelist: this list plus trusted network filters. */
export function EffectiveWhitelist() {
  const list = useEffectiveWhitelist();
  const fail2ban = useFail2ban();
  const entries = (list.data ?? []).map(whitelistEntryText);
  // Where an entry comes from: the list on the left, or a network filter marked trusted.
  const fromWhitelist = new Set((fail2ban.data?.whitelist ?? '').split(/[\s,]+/).filter(Boolean));
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="effective-whitelist-title">
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h4" id="effective-whitelist-title">
          Effective whitelist
        </Title>
        <Badge variant="light">{entries.length} entries</Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        What bouncers receive from <Code>/v1/whitelist</Code>: the fail2ban whitelist plus every network filter marked trusted.
      </Text>
      <QueryState
        query={list}
        label="the effective whitelist"
        isEmpty={entries.length === 0}
        empty={{ title: 'The whitelist is empty', hint: 'No address is exempt from bans.' }}
      >
        <List spacing={4} size="sm" aria-label="Effective whitelist entries" data-testid="effective-whitelist">
          {entries.map((entry, index) => (
            <List.Item key={`${entry}-${index}`}>
              <Group gap="xs">
                <Text ff="monospace" size="sm" data-entry>
                  {entry}
                </Text>
                {fail2ban.data && (
                  <Badge size="xs" variant="light" color={fromWhitelist.has(entry) ? 'gray' : 'blue'}>
                    {fromWhitelist.has(entry) ? 'whitelist' : 'trusted filter'}
                  </Badge>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      </QueryState>
    </Card>
  );
}
