import { Badge } from '@mantine/core';
import type { KeyStatus } from '../api/types.ts';

const LOOK: Record<KeyStatus, { color: string; label: string }> = {
  active: { color: 'teal', label: 'Active' },
  disabled: { color: 'gray', label: 'Disabled' },
  expired: { color: 'orange', label: 'Expired' },
};

/** Active, Disabled or Expired: a disabled or expired key gets 401 on every request. */
export function KeyStatusBadge({ status }: { status: KeyStatus }) {
  const look = LOOK[status];
  return (
    <Badge color={look.color} variant="light" data-testid="api-key-status" style={{ minWidth: 'max-content' }}>
      {look.label}
    </Badge>
  );
}
