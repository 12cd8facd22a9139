import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefreshDot } from '@tabler/icons-react';
import type { BouncerStatus } from '../api/get-bouncer-status.ts';
import { useResyncBouncer } from '../api/resync-bouncer.ts';

/** The hosts whose last usage report counts other decisions than the key's last answer carried. */
export function driftedHosts(bouncer: BouncerStatus) {
  return bouncer.hosts.filter((h) => h.activeDecisions !== null && h.activeDecisions !== bouncer.lastNew);
}

/**
 * A bouncer that says it holds other decisions than it was sent (a firewall that lost its set, a
 * reboot) is offered a resync: everything again at its next poll, the whole list at its next fetch.
 */
export function ResyncOffer({ bouncer }: { bouncer: BouncerStatus }) {
  const resync = useResyncBouncer();
  const drifted = driftedHosts(bouncer);
  if (drifted.length === 0 || bouncer.state === 'never') return null;
  const name = bouncer.description || `Key #${bouncer.keyId}`;
  return (
    <Group gap="xs" wrap="wrap" data-testid="bouncer-drift">
      <Text size="xs" fw={500} style={{ flex: '1 1 12rem' }}>
        {drifted.map((h) => `${h.ip} holds ${h.activeDecisions!.toLocaleString()} decisions`).join('; ')}; its last poll
        carried {bouncer.lastNew.toLocaleString()}.
      </Text>
      <Button
        size="compact-sm"
        variant="light"
        color="orange"
        leftSection={<IconRefreshDot size={14} />}
        loading={resync.isPending}
        aria-label={`Resync ${name}`}
        onClick={() =>
          void resync.mutateAsync(bouncer.keyId).then(() =>
            notifications.show({
              color: 'teal',
              title: 'Resync requested',
              message: `${name}: everything is sent again at its next poll.`,
            }),
          )
        }
      >
        Resync
      </Button>
    </Group>
  );
}
