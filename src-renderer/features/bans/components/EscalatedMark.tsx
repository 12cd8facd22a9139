import { Text } from '@mantine/core';

/**
 * "Escalated from 5 bans": a subnet ban that replaced the single bans of its neighbourhood (the
 * server's neighbourhood escalation). Text that wraps, not a badge, so it fits a 390 px card, and
 * not a tooltip, so it reads the same by touch.
 */
export function EscalatedMark({ escalatedFrom }: { escalatedFrom?: number }) {
  if (!escalatedFrom) return null;
  return (
    <Text size="xs" fw={600} c="grape.9" data-testid="ban-escalated">
      Escalated from {escalatedFrom} bans
    </Text>
  );
}
