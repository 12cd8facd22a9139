import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatDuration } from '../../../lib/format.ts';
import { linkProps } from '../../../lib/router.ts';
import { useAmiSettings } from '../api/ami-settings.ts';
import { useAmiStatus } from '../api/get-ami-status.ts';
import { DashboardCard } from '../../../components/DashboardCard.tsx';

/** Dashboard card: the Asterisk manager connection that feeds peer states and SIP/IAX/AMI bans. */
export function AmiStatusCard({ settingsHref }: { settingsHref?: string }) {
  const status = useAmiStatus();
  const settings = useAmiSettings();
  const s = status.data;
  const badge = !s
    ? null
    : !s.enabled
      ? { label: 'Not configured', color: 'gray' }
      : s.connected
        ? { label: 'Connected', color: 'teal' }
        : { label: 'Disconnected', color: 'red' };
  return (
    <DashboardCard
      icon={<IconPlugConnected size={20} aria-hidden />}
      title="Asterisk manager (AMI)"
      badge={
        badge && (
          <Badge color={badge.color} variant="light" data-testid="ami-state">
            {badge.label}
          </Badge>
        )
      }
    >
      <QueryState query={status} label="AMI status">
        {s && (
          <Stack gap={4}>
            {!s.enabled && (
              <Text size="sm" c="dimmed">
                Without AMI every extension shows UNKNOWN and every provider OFF, and SIP/IAX/AMI attacks are not
                banned.{' '}
                {settingsHref && (
                  <Anchor {...linkProps(settingsHref)} size="sm" underline="always">
                    Configure it in Settings.
                  </Anchor>
                )}
              </Text>
            )}
            {s.enabled && s.connected && (
              <Text size="sm">
                Live peer states and security events are flowing
                {s.stateAgeSeconds !== null ? `; last update ${formatDuration(s.stateAgeSeconds)} ago` : ''}.
              </Text>
            )}
            {s.enabled && settings.data && (
              <Text size="sm" c="dimmed" ff="monospace">
                {settings.data.username || '(no user)'}@{settings.data.host}:{settings.data.port}
              </Text>
            )}
            {s.enabled && !s.connected && (
              <Text size="sm" c="red">
                {s.lastError ? `Last error: ${s.lastError}. ` : ''}Check the host, port, user and secret in Settings,
                and that Asterisk allows this host in manager.conf.
              </Text>
            )}
          </Stack>
        )}
      </QueryState>
    </DashboardCard>
  );
}
