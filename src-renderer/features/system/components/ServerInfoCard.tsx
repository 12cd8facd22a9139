import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatDuration } from '../../../lib/format.ts';
import { useSystemInfo } from '../api/get-system-info.ts';
import { DashboardCard } from '../../../components/DashboardCard.tsx';

/** Dashboard card: where this server listens and the exact api_url bouncers must use. */
export function ServerInfoCard() {
  const info = useSystemInfo();
  return (
    <DashboardCard
      icon={<IconServer size={20} aria-hidden />}
      title="Server"
      badge={
        info.data && (
          <Badge variant="light" color="gray">
            v{info.data.version}
          </Badge>
        )
      }
    >
      <QueryState query={info} label="server information">
        {info.data && (
          <Stack gap="sm">
            <Group gap="xl">
              <div>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  Addresses
                </Text>
                <Text size="sm" ff="monospace" data-testid="server-addresses">
                  {info.data.addresses.length ? info.data.addresses.join(', ') : 'loopback only'}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  Ports
                </Text>
                <Text size="sm">
                  HTTP {info.data.httpPort}
                  {info.data.httpsPort ? ` · HTTPS ${info.data.httpsPort}` : ''}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  Uptime
                </Text>
                <Text size="sm">{formatDuration(info.data.uptimeSeconds)}</Text>
              </div>
            </Group>
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb={4}>
                Bouncer api_url
              </Text>
              <Stack gap={6}>
                {info.data.bouncerApiUrls.map((url) => (
                  <CopyBlock key={url} value={url} label="api_url" />
                ))}
              </Stack>
            </div>
          </Stack>
        )}
      </QueryState>
    </DashboardCard>
  );
}
