import { Badge, Card, Group, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { IconShieldX } from '@tabler/icons-react';
import { QueryState } from '../../../components/QueryState.tsx';
import { StackedBarChart } from '../../../components/StackedBarChart.tsx';
import { formatHourMinute, toMillis } from '../../../lib/format.ts';
import { BAN_CATEGORIES } from '../api/categories.ts';
import { useBanHistory, type BanHistoryPoint } from '../api/get-ban-history.ts';
import { useBanCounts } from '../api/get-banned-ips.ts';
import { DashboardCard } from '../../../components/DashboardCard.tsx';

/** Bans a history point counts (points from before manual bans have no `manual`). */
const startedIn = (p: BanHistoryPoint) => p.sip + p.http + p.ami + p.iax + (p.manual ?? 0);

/** Dashboard card: active bans per category now, and the bans started in each recent minute. */
export function BanSummaryCard() {
  const bans = useBanCounts();
  const [minutes, setMinutes] = useState('60');
  const history = useBanHistory(Number(minutes));
  const total = bans.data?.total ?? 0;
  const counts = bans.data?.categories;
  const points = (history.data ?? []).map((p) => {
    const ms = toMillis(p.t);
    return { ...p, manual: p.manual ?? 0, time: ms === null ? '' : formatHourMinute(ms) };
  });

  // A ban in the live list that started after the chart was fetched is missing from it: refresh the
  // chart, at most once per fetch of the list so a clock difference cannot loop.
  const newestStart = toMillis(bans.data?.newestBannedAt ?? null) ?? 0;
  const caughtUpFor = useRef(0);
  const { refetch: refetchHistory, dataUpdatedAt: chartFetchedAt } = history;
  useEffect(() => {
    if (
      !bans.isSuccess ||
      !history.isSuccess ||
      newestStart <= chartFetchedAt ||
      caughtUpFor.current === bans.dataUpdatedAt
    )
      return;
    caughtUpFor.current = bans.dataUpdatedAt;
    void refetchHistory();
  }, [bans.isSuccess, bans.dataUpdatedAt, history.isSuccess, newestStart, chartFetchedAt, refetchHistory]);

  // Whole-number ticks with room above the highest point: 0, half, top.
  const highest = Math.max(0, ...(history.data ?? []).map(startedIn));
  const top = Math.max(4, Math.ceil((highest * 1.25) / 2) * 2);

  return (
    <DashboardCard
      icon={<IconShieldX size={20} aria-hidden />}
      title="Active bans"
      fullHeight={false}
      badge={
        <Badge variant="light" color={total ? 'red' : 'gray'} size="lg">
          {total.toLocaleString('en-US')} total
        </Badge>
      }
    >
      <QueryState query={bans} label="bans">
        <Stack>
          <SimpleGrid cols={{ base: 2, xs: 3, sm: 5 }}>
            {BAN_CATEGORIES.map((c) => (
              <Card key={c.value} withBorder radius="sm" padding="sm" data-testid={`ban-count-${c.value}`}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  {c.label}
                </Text>
                <Text size="xl" fw={700} c={counts?.[c.value] ? c.color : undefined}>
                  {(counts?.[c.value] ?? 0).toLocaleString('en-US')}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <Group justify="space-between">
            <Text size="sm" fw={600} id="ban-history-title">
              Bans started per minute
            </Text>
            <SegmentedControl
              size="xs"
              aria-label="History range"
              value={minutes}
              onChange={setMinutes}
              data={[
                { value: '60', label: '1 h' },
                { value: '360', label: '6 h' },
                { value: '1440', label: '24 h' },
              ]}
            />
          </Group>
          {history.isSuccess && points.length > 1 ? (
            <StackedBarChart
              data={points}
              labelKey="time"
              series={BAN_CATEGORIES.map((c) => ({ name: c.value, label: c.label, color: c.color }))}
              top={top}
              labelledBy="ban-history-title"
            />
          ) : (
            <Text size="sm" c="dimmed">
              {history.isError
                ? 'The ban history is not available.'
                : 'The chart fills in as the server records one point per minute.'}
            </Text>
          )}
        </Stack>
      </QueryState>
    </DashboardCard>
  );
}
