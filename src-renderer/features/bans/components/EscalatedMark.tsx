import { WholeBadge } from './CategoryBadge.tsx';

/**
 * "Escalated range · 5 bans": a Range ban that replaced the single bans of its neighbourhood
 * (the server's neighbourhood escalation). Text, not a tooltip, so it reads the same by touch.
 */
export function EscalatedMark({ escalatedFrom }: { escalatedFrom?: number }) {
  if (!escalatedFrom) return null;
  return (
    <WholeBadge color="grape" variant="outline" data-testid="ban-escalated">
      Escalated range · {escalatedFrom} bans
    </WholeBadge>
  );
}
