import { Anchor, Badge, Group, List, Stack, Text } from '@mantine/core';
import { IconHeartbeat } from '@tabler/icons-react';
import { DashboardCard } from '../../../components/DashboardCard.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatAgo, formatTime } from '../../../lib/format.ts';
import { linkProps } from '../../../lib/router.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useHealth, type HealthArea, type HealthCheck } from '../api/get-health.ts';

const SEVERITY = {
  critical: { label: 'Critical', color: 'red' },
  warning: { label: 'Warning', color: 'orange' },
  info: { label: 'Note', color: 'blue' },
} as const;

/** One failing check: its severity, what is wrong in words, since when, and where to act. */
function CheckItem({ check, href, now }: { check: HealthCheck; href: string | undefined; now: number }) {
  const severity = SEVERITY[check.severity];
  return (
    <List.Item data-testid="health-check" data-kind={check.kind}>
      <Stack gap={2}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Badge color={severity.color} variant="filled" style={{ flexShrink: 0 }}>
            {severity.label}
          </Badge>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {check.title}
          </Text>
        </Group>
        {check.detail && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {check.detail}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Failing since {formatTime(check.since)} ({formatAgo(check.since, now).replace(' ago', '')})
          {href && (
            <>
              {' · '}
              <Anchor {...linkProps(href)} size="xs" underline="always">
                {check.action ?? 'Open'}
              </Anchor>
            </>
          )}
        </Text>
      </Stack>
    </List.Item>
  );
}

/** Dashboard card: every failing health check in words, with its age and a link to where it is fixed. */
export function HealthCard({ hrefs }: { hrefs: Record<HealthArea, string> }) {
  const health = useHealth();
  const now = useNow(15_000);
  const checks = health.data?.checks;
  const badge = checks && (
    <Badge color={checks.length ? 'red' : 'teal'} variant="light" data-testid="health-state">
      {checks.length ? `${checks.length} failing` : 'All good'}
    </Badge>
  );
  return (
    <DashboardCard icon={<IconHeartbeat size={20} aria-hidden />} title="Health" badge={badge} fullHeight={false}>
      <QueryState query={health} label="health checks">
        {checks &&
          (checks.length === 0 ? (
            <Text size="sm" c="dimmed">
              Every check passes: bouncers and router feeds fetch the bans, the links to the LAPI and Asterisk are up,
              and attacks are at their usual level.
            </Text>
          ) : (
            <List spacing="sm" listStyleType="none" aria-live="polite">
              {checks.map((check) => (
                <CheckItem key={check.id} check={check} href={check.area ? hrefs[check.area] : undefined} now={now} />
              ))}
            </List>
          ))}
      </QueryState>
    </DashboardCard>
  );
}
