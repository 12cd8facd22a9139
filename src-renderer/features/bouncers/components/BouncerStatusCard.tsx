import { Badge, Button, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAccessPoint, IconLockExclamation } from '@tabler/icons-react';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatAgo, formatDateTime, plural } from '../../../lib/format.ts';
import { useNow } from '../../../lib/use-now.ts';
import {
  useBouncerStatus,
  type BouncerHost,
  type BouncerRejection,
  type BouncerStatus,
} from '../api/get-bouncer-status.ts';
import { useUnbanBouncerHost } from '../api/unban-bouncer-host.ts';
import { bouncerStateView, refusalInWords } from './bouncer-state.ts';
import { ProblemAlert } from '../../../components/ProblemAlert.tsx';

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

/** The refused box lists the newest few refusals; a bouncer's row repeats only the others. */
const REFUSED_BOX_SIZE = 5;
const rejectionKey = (r: BouncerRejection) => `${r.ip} ${r.keyId ?? ''}`;

const keyName = (bouncer: BouncerStatus) => bouncer.description || `Key #${bouncer.keyId}`;

function BouncerRow({
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
      {bouncer.hosts.map((host) => (
        <HostLine key={host.ip} host={host} now={now} />
      ))}
      {bouncer.refused
        .filter((r) => !inRefusedBox.has(rejectionKey(r)))
        .map((r) => (
          <RejectionLine key={rejectionKey(r)} rejection={r} now={now} />
        ))}
    </Stack>
  );
}

/** One refused source: why, how often, and a one-click unban while a ban locks it out. */
function RejectionLine({ rejection: r, now }: { rejection: BouncerRejection; now: number }) {
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
function Refused({ rejections, now }: { rejections: BouncerRejection[]; now: number }) {
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

/** Dashboard card: each bouncer key with its state from its last attempt and its hosts, and the refused sources. */
export function BouncerStatusCard() {
  const status = useBouncerStatus();
  const now = useNow();
  const bouncers = status.data?.bouncers ?? [];
  const rejections = status.data?.rejections ?? [];
  const inRefusedBox = new Set(rejections.slice(0, REFUSED_BOX_SIZE).map(rejectionKey));
  return (
    <Card withBorder padding="lg" radius="md" h="100%" component="section" aria-labelledby="bouncers-card-title">
      <Group gap="xs" mb="sm">
        <IconAccessPoint size={20} aria-hidden />
        <Title order={2} size="h4" id="bouncers-card-title">
          Bouncers
        </Title>
      </Group>
      <Refused rejections={rejections} now={now} />
      <QueryState
        query={status}
        label="bouncer status"
        isEmpty={bouncers.length === 0}
        empty={{
          title: 'No bouncer keys',
          hint: 'Create a key with the “Firewall bouncer” preset in API keys, then paste its configuration on the firewall host.',
        }}
      >
        <div aria-label="Bouncer keys and their hosts">
          {bouncers.map((bouncer) => (
            <BouncerRow key={bouncer.keyId} bouncer={bouncer} now={now} inRefusedBox={inRefusedBox} />
          ))}
        </div>
      </QueryState>
    </Card>
  );
}
