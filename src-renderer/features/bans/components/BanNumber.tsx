import { Text } from '@mantine/core';
import { ordinal } from '../../../lib/format.ts';
import { WholeBadge } from './CategoryBadge.tsx';

/** "3rd ban": a repeat offender's rank among its bans in that category (manual bans have none). */
export function BanNumber({ category, banNumber }: { category: string; banNumber?: number }) {
  if (category === 'manual' || !banNumber)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const text = `${ordinal(banNumber)} ban`;
  return banNumber > 1 ? (
    <WholeBadge color="orange" data-testid="ban-number">
      {text}
    </WholeBadge>
  ) : (
    <Text size="xs" c="dimmed" data-testid="ban-number">
      {text}
    </Text>
  );
}
