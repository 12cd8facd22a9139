import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { IconCloudNetwork } from '@tabler/icons-react';
import { DashboardCard } from '../../../components/DashboardCard.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatAgo, plural } from '../../../lib/format.ts';
import { linkProps } from '../../../lib/router.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useCrowdsecLinkStatus } from '../api/get-crowdsec-link-status.ts';

const BADGE = {
  off: { color: 'gray', label: 'Off' },
  connecting: { color: 'yellow', label: 'Connecting…' },
  connected: { color: 'teal', label: 'Connected' },
  error: { color: 'red', label: 'Down' },
} as const;

/** Dashboard card: the link to the upstream CrowdSec LAPI, up or down, its last exchanges and waiting bans. */
export function LapiLinkCard({ settingsHref }: { settingsHref: string }) {
  const status = useCrowdsecLinkStatus();
  const now = useNow(5000);
  const s = status.data;
  const badge = s && (
    <Badge color={BADGE[s.state].color} variant="light" data-testid="lapi-state">
      {BADGE[s.state].label}
    </Badge>
  );
  return (
    <DashboardCard icon={<IconCloudNetwork size={20} aria-hidden />} title="CrowdSec LAPI link" badge={badge}>
      <QueryState query={status} label="LAPI link status">
        {s && (
          <Stack gap={4}>
            {!s.enabled ? (
              <Text size="sm" c="dimmed">
                Not used: bans are not shared with other sites.{' '}
                <Anchor {...linkProps(settingsHref)} size="sm" underline="always">
                  Set it up in Settings.
                </Anchor>
              </Text>
            ) : (
              <Text size="sm">
                Last push {s.lastPushAt ? formatAgo(s.lastPushAt, now) : 'never'} · last pull{' '}
                {s.lastPullAt ? formatAgo(s.lastPullAt, now) : 'never'} · {plural(s.queueLength, 'ban', 'bans')} waiting
                to be sent
              </Text>
            )}
            {s.state === 'error' && (
              <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
                {s.lastError ? `${s.lastError.replace(/\.$/, '')}. ` : ''}This PBX keeps enforcing its own bans; check
                the link in{' '}
                <Anchor {...linkProps(settingsHref)} size="sm" underline="always" c="red">
                  Settings
                </Anchor>
                .
              </Text>
            )}
          </Stack>
        )}
      </QueryState>
    </DashboardCard>
  );
}
