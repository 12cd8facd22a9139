import { Badge, Group, Stack, Text } from '@mantine/core';
import { formatAgo, plural } from '../../../lib/format.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useCrowdsecLinkStatus } from '../api/get-crowdsec-link-status.ts';
import { ProblemAlert } from '../../../components/ProblemAlert.tsx';

const BADGE = {
  off: { color: 'gray', label: 'Off' },
  connecting: { color: 'yellow', label: 'Connecting…' },
  connected: { color: 'teal', label: 'Connected' },
  error: { color: 'red', label: 'Not working' },
} as const;

/** The link as it is now: connected, last push and pull, the push queue, and the last error in words. */
export function CrowdsecLinkStatus() {
  const { data } = useCrowdsecLinkStatus();
  const now = useNow(5000);
  if (!data) return null;
  const badge = BADGE[data.state];
  const skipped = Object.entries(data.pull.skipped).filter(([, n]) => n > 0);
  return (
    <Stack gap={6} data-testid="crowdsec-link-status" aria-live="polite">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          Link to the LAPI
        </Text>
        <Badge variant="light" color={badge.color}>
          {badge.label}
        </Badge>
      </Group>
      {data.enabled && (
        <Text size="sm">
          Last push: {data.lastPushAt ? formatAgo(data.lastPushAt, now) : 'never'} · Last pull:{' '}
          {data.lastPullAt ? formatAgo(data.lastPullAt, now) : 'never'} · Waiting to be sent:{' '}
          {plural(data.queueLength, 'ban', 'bans')}
          {data.pull.enabled ? ` · Upstream decisions held: ${data.pull.decisions}` : ''}
        </Text>
      )}
      {data.enabled && skipped.length > 0 && (
        <Text size="xs" c="dimmed">
          Not applied: {skipped.map(([reason, n]) => `${reason} ${n}`).join(', ')}.
        </Text>
      )}
      {data.state === 'error' && data.lastError && (
        <ProblemAlert title="The link is not working">
          {data.lastError} Bans are kept and sent once the LAPI answers; this PBX keeps enforcing its own bans
          meanwhile.
        </ProblemAlert>
      )}
    </Stack>
  );
}
