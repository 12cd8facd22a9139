import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { formatAgo, formatDateTime, plural } from '../../../lib/format.ts';
import type { BouncerHost, BouncerStatus } from '../api/get-bouncer-status.ts';
import { bouncerStateView, refusalInWords } from './bouncer-state.ts';
import { ownLeftOut } from './cap-text.ts';
import { RejectionLine, rejectionKey } from './RefusedRequests.tsx';
import { ResyncOffer } from './ResyncOffer.tsx';

/** "12 packets, 800 bytes" per origin, as the bouncer reported dropping them. */
function droppedText(dropped: BouncerHost['dropped']): string | null {
  const origins = Object.entries(dropped);
  if (origins.length === 0) return null;
  return origins
    .map(
      ([origin, units]) =>
        `${Object.entries(units)
          .map(([unit, n]) => `${n.toLocaleString()} ${unit}${n === 1 ? '' : 's'}`)
          .join(', ')} (${origin})`,
    )
    .join('; ');
}

function HostLine({ host, now }: { host: BouncerHost; now: number }) {
  const identity = [host.type ?? host.userAgent.split(' ')[0], host.version, host.os].filter(Boolean).join(' · ');
  const dropped = droppedText(host.dropped);
  return (
    <Stack gap={0} data-testid="bouncer-host">
      <Text size="xs" ff="monospace">
        {host.ip}{' '}
        <Text span c="dimmed" size="xs">
          · {formatAgo(host.lastSeen, now)}
        </Text>
      </Text>
      {identity && (
        <Text size="xs" c="dimmed" lineClamp={1}>
          {identity}
        </Text>
      )}
      {dropped && (
        <Text size="xs" c="dimmed">
          Dropped {dropped}
        </Text>
      )}
    </Stack>
  );
}

const keyName = (bouncer: BouncerStatus) => bouncer.description || `Key #${bouncer.keyId}`;

/** One bouncer key: its state, its last served poll, its hosts and the refusals the box above does not list. */
export function BouncerRow({
  bouncer,
  now,
  inRefusedBox,
}: {
  bouncer: BouncerStatus;
  now: number;
  inRefusedBox: ReadonlySet<string>;
}) {
  const state = bouncerStateView(bouncer);
  return (
    <Stack
      gap={4}
      data-testid="bouncer-row"
      data-state={bouncer.state}
      py="xs"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={500} lineClamp={1}>
          {keyName(bouncer)}
        </Text>
        <Badge color={state.color} variant={state.variant} style={{ flexShrink: 0 }} data-testid="bouncer-state">
          {state.label}
        </Badge>
      </Group>
      {bouncer.refusal && (
        <Text size="sm" c="red" fw={500} data-testid="bouncer-refusal">
          Refused: {refusalInWords(bouncer.refusal)} (key “{keyName(bouncer)}”), {formatAgo(bouncer.refusal.at, now)}
          {bouncer.refusal.code !== 'wrong-source' && bouncer.refusal.ip && ` from ${bouncer.refusal.ip}`}
        </Text>
      )}
      <Tooltip label={formatDateTime(bouncer.lastPollAt)} disabled={!bouncer.lastPollAt}>
        <Text size="xs" c={bouncer.state === 'served' || bouncer.state === 'never' ? 'dimmed' : undefined}>
          Last served poll {formatAgo(bouncer.lastPollAt, now)}
          {bouncer.lastPollIp && ` from ${bouncer.lastPollIp}`} · {plural(bouncer.polls, 'poll', 'polls')}
        </Text>
      </Tooltip>
      {bouncer.lastFetchAt && (
        <Text size="xs" c="dimmed">
          Last feed fetch {formatAgo(bouncer.lastFetchAt, now)}
        </Text>
      )}
      {bouncer.cap && (
        <Text
          size="xs"
          c={ownLeftOut(bouncer) > 0 ? 'red' : 'dimmed'}
          fw={ownLeftOut(bouncer) > 0 ? 600 : undefined}
          data-testid="bouncer-cap"
        >
          Device limit: {bouncer.cap.text}
        </Text>
      )}
      {bouncer.hosts.map((host) => (
        <HostLine key={host.ip} host={host} now={now} />
      ))}
      <ResyncOffer bouncer={bouncer} />
      {bouncer.refused
        .filter((r) => !inRefusedBox.has(rejectionKey(r)))
        .map((r) => (
          <RejectionLine key={rejectionKey(r)} rejection={r} now={now} />
        ))}
    </Stack>
  );
}
