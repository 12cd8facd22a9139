import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconLockExclamation } from '@tabler/icons-react';
import { ProblemAlert } from '../../../components/ProblemAlert.tsx';
import { formatAgo, plural } from '../../../lib/format.ts';
import type { BouncerRejection } from '../api/get-bouncer-status.ts';
import { useUnbanBouncerHost } from '../api/unban-bouncer-host.ts';

/** The refused box lists the newest few refusals; a bouncer's row repeats only the others. */
export const REFUSED_BOX_SIZE = 5;
export const rejectionKey = (r: BouncerRejection) => `${r.ip} ${r.keyId ?? ''}`;

/** One refused source: why, how often, and a one-click unban while a ban locks it out. */
export function RejectionLine({ rejection: r, now }: { rejection: BouncerRejection; now: number }) {
  const unban = useUnbanBouncerHost();
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid="bouncer-rejection">
      <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
        <Text size="sm" ff="monospace">
          {r.ip}
          {r.banned && (
            <Badge ml="xs" color="red" size="sm">
              Banned ({r.bannedCategories.join(', ')})
            </Badge>
          )}
        </Text>
        <Text size="xs">
          {r.keyDescription ? `Key “${r.keyDescription}”: ` : r.keyId === null ? 'Unknown key: ' : ''}
          {r.reason} · {plural(r.count, 'time', 'times')}, last {formatAgo(r.lastAt, now)}
        </Text>
      </Stack>
      {r.banned && (
        <Button
          size="xs"
          variant="light"
          color="red"
          loading={unban.isPending}
          onClick={() => unban.mutate(r.ip)}
          aria-label={`Unban ${r.ip}`}
        >
          Unban
        </Button>
      )}
    </Group>
  );
}

/** Sources refused on the export: why, and a one-click unban when a ban still locks a bouncer out. */
export function Refused({ rejections, now }: { rejections: BouncerRejection[]; now: number }) {
  if (rejections.length === 0) return null;
  return (
    <ProblemAlert
      icon={<IconLockExclamation size={18} />}
      title="Refused bouncer requests"
      mb="sm"
      data-testid="bouncer-rejections"
    >
      <Stack gap="xs">
        {rejections.slice(0, REFUSED_BOX_SIZE).map((r) => (
          <RejectionLine key={rejectionKey(r)} rejection={r} now={now} />
        ))}
        <Text size="xs">
          A host banned for wrong keys is served again, and its ban lifted, as soon as it polls with a valid key.
        </Text>
      </Stack>
    </ProblemAlert>
  );
}
