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

/** Why upstream decisions were not applied, in words ("echo" is this PBX's own ban coming back). */
function skippedText(reason: string, count: number): string {
  const n = plural(count, 'decision', 'decisions');
  if (reason === 'echo') return `${n} that were this PBX's own bans coming back (already enforced here)`;
  if (reason === 'protected') return `${n} for whitelisted, trusted or loopback addresses (never banned)`;
  if (reason === 'invalid') return `${n} the LAPI sent malformed`;
  if (reason.startsWith('type:')) return `${n} of type "${reason.slice(5)}" (only bans are enforced)`;
  if (reason.startsWith('scope:')) return `${n} of scope "${reason.slice(6)}" (only addresses and ranges are enforced)`;
  return `${n} (${reason})`;
}

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
          {data.push.enabled
            ? `Bans last sent to the LAPI: ${data.lastPushAt ? formatAgo(data.lastPushAt, now) : 'not yet'} · ` +
              `${plural(data.queueLength, 'ban', 'bans')} waiting to be sent`
            : "This PBX's bans are not pushed"}
          {data.pull.enabled
            ? ` · Decisions last fetched: ${data.lastPullAt ? formatAgo(data.lastPullAt, now) : 'not yet'} · ` +
              `${plural(data.pull.decisions, 'upstream decision', 'upstream decisions')} enforced here`
            : ''}
        </Text>
      )}
      {data.enabled && skipped.length > 0 && (
        <Text size="xs" c="dimmed">
          Not enforced here: {skipped.map(([reason, n]) => skippedText(reason, n)).join('; ')}.
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
