import { Card, Group, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/** A dashboard card: a section named by its heading (icon and title), a badge at the right, then the body. */
export function DashboardCard({
  icon,
  title,
  badge,
  fullHeight = true,
  children,
}: {
  icon: ReactNode;
  title: string;
  badge?: ReactNode;
  /** Fill its grid cell's height (cards side by side line up). */
  fullHeight?: boolean;
  children: ReactNode;
}) {
  // The heading names the section for screen readers.
  const titleId = useId();
  return (
    <Card
      withBorder
      padding="lg"
      radius="md"
      h={fullHeight ? '100%' : undefined}
      component="section"
      aria-labelledby={titleId}
    >
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          {icon}
          <Title order={2} size="h4" id={titleId}>
            {title}
          </Title>
        </Group>
        {badge}
      </Group>
      {children}
    </Card>
  );
}
