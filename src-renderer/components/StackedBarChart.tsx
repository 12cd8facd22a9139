import { Box, Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';

export interface ChartSeries {
  name: string;
  label: string;
  /** A Mantine colour name; the bar uses its 6th shade. */
  color: string;
}

/**
 * A stacked bar chart drawn as plain SVG: one bar per point, a segment per series, ticks at 0, half
 * and `top`, a hover title per bar, and a legend. The dashboard needs no more than this, and a chart
 * library would be the largest part of the first screen (about 100 KB compressed).
 */
export function StackedBarChart<T extends Record<string, string | number>>({
  data,
  labelKey,
  series,
  top,
  height = 180,
  labelledBy,
}: {
  data: T[];
  labelKey: keyof T & string;
  series: readonly ChartSeries[];
  top: number;
  height?: number;
  labelledBy: string;
}) {
  // Drawn at the box's own width, so text keeps its size on a phone.
  const { ref, width: measured } = useElementSize();
  const width = Math.max(200, Math.round(measured) || 600);
  const axis = 30;
  const bottom = 18;
  const plot = height - bottom;
  const slot = (width - axis) / Math.max(1, data.length);
  const barWidth = Math.max(1, slot * 0.7);
  const y = (value: number) => plot - (value / top) * (plot - 6);
  // One time label per 70 px or so, whatever the range and the screen.
  const labelEvery = Math.max(1, Math.ceil(data.length / Math.max(2, Math.floor((width - axis) / 70))));
  return (
    <Box ref={ref}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={height}
        role="img"
        aria-labelledby={labelledBy}
        style={{ display: 'block' }}
      >
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line
              x1={axis}
              x2={width}
              y1={y(tick)}
              y2={y(tick)}
              stroke="var(--mantine-color-default-border)"
              strokeDasharray={tick ? '4 4' : undefined}
            />
            <text x={axis - 6} y={y(tick) + 4} textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
              {tick}
            </text>
          </g>
        ))}
        {data.map((point, index) => {
          const x = axis + index * slot + (slot - barWidth) / 2;
          let stacked = 0;
          const total = series.reduce((sum, s) => sum + Number(point[s.name] ?? 0), 0);
          return (
            <g key={index}>
              <title>{`${point[labelKey]}: ${total} ${total === 1 ? 'ban' : 'bans'}${
                total
                  ? ` (${series
                      .filter((s) => Number(point[s.name]))
                      .map((s) => `${s.label} ${point[s.name]}`)
                      .join(', ')})`
                  : ''
              }`}</title>
              {/* A full-height transparent target so the title shows over empty minutes too. */}
              <rect x={axis + index * slot} y={0} width={slot} height={plot} fill="transparent" />
              {series.map((s) => {
                const value = Number(point[s.name] ?? 0);
                if (!value) return null;
                const from = stacked;
                stacked += value;
                return (
                  <rect
                    key={s.name}
                    data-series={s.name}
                    x={x}
                    width={barWidth}
                    y={y(stacked)}
                    height={y(from) - y(stacked)}
                    fill={`var(--mantine-color-${s.color}-6)`}
                  />
                );
              })}
              {index % labelEvery === 0 && (
                <text
                  x={x + barWidth / 2}
                  y={height - 4}
                  textAnchor="middle"
                  fontSize={11}
                  fill="var(--mantine-color-dimmed)"
                >
                  {String(point[labelKey])}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <Group gap="md" justify="center" mt={4}>
        {series.map((s) => (
          <Group key={s.name} gap={6} wrap="nowrap">
            <Box
              w={10}
              h={10}
              style={{ borderRadius: 2, background: `var(--mantine-color-${s.color}-6)` }}
              aria-hidden
            />
            <Text size="xs">{s.label}</Text>
          </Group>
        ))}
      </Group>
    </Box>
  );
}
