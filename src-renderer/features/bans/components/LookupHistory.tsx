import { Group, List, Stack, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { formatAgo, formatDateTime } from '../../../lib/format.ts';
import { categoryLabel } from '../api/categories.ts';
import type { AddressLookup } from '../api/lookup-address.ts';

type PastBan = AddressLookup['history'][number];

/** "Manual ban of the range 198.51.100.0/24" / "Intrusion ban (SIP)". */
function pastBanKind(past: PastBan, address: string): string {
  const range = past.value === address ? '' : ` of the range ${past.value}`;
  return past.category === 'manual' ? `Manual ban${range}` : `Intrusion ban (${categoryLabel(past.category)})${range}`;
}

/** "banned 2026-11-28 04:10:00 CET by admin · lifted 2026-11-28 04:20:00 CET (10 min ago) by admin". */
export function pastBanText(past: PastBan): string {
  const by = past.bannedBy ? ` by ${past.bannedBy}` : '';
  const when = `${formatDateTime(past.endedAt)} (${formatAgo(past.endedAt)})`;
  const end =
    past.ended === 'lifted' ? `lifted ${when}${past.liftedBy ? ` by ${past.liftedBy}` : ''}` : `ran out ${when}`;
  return `banned ${formatDateTime(past.bannedAt)}${by} · ${end}`;
}

/** The bans that held the address and have ended: the lookup's memory. */
export function LookupHistory({ answer }: { answer: AddressLookup }) {
  if (answer.history.length === 0) return null;
  return (
    <Stack gap={4}>
      <Group gap={6}>
        <IconHistory size={16} aria-hidden />
        <Text size="sm" fw={600}>
          Recent history of {answer.address}:
        </Text>
      </Group>
      <List spacing={4} aria-label={`Recent bans of ${answer.address} that have ended`}>
        {answer.history.map((past) => (
          <List.Item key={`${past.value}-${past.category}-${past.bannedAt}`} data-testid="lookup-history">
            <Text size="sm" fw={600}>
              {pastBanKind(past, answer.address)}
            </Text>
            <Text size="sm">{pastBanText(past)}</Text>
            {past.reason && (
              <Text size="xs" c="dimmed">
                {past.reason}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
