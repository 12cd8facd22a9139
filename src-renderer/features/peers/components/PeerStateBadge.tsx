import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  OK: 'teal',
  REGISTERED: 'teal',
  REACHABLE: 'teal',
  UNKNOWN: 'gray',
  OFF: 'gray',
  UNREACHABLE: 'red',
  UNAVAILABLE: 'red',
  REJECTED: 'red',
  LAGGED: 'yellow',
};

/** A peer or provider state with a colour that reads at a glance. */
export function PeerStateBadge({ state }: { state: string }) {
  const color = COLORS[state.toUpperCase()] ?? 'yellow';
  return (
    <Badge color={color} variant={color === 'gray' ? 'outline' : 'light'} data-testid="peer-state">
      {state}
    </Badge>
  );
}
