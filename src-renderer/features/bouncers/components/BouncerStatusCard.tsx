import { Card, Group, Title } from '@mantine/core';
import { IconAccessPoint } from '@tabler/icons-react';
import { QueryState } from '../../../components/QueryState.tsx';
import { useNow } from '../../../lib/use-now.ts';
import { useBouncerStatus } from '../api/get-bouncer-status.ts';
import { BouncerRow } from './BouncerRow.tsx';
import { REFUSED_BOX_SIZE, Refused, rejectionKey } from './RefusedRequests.tsx';

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
