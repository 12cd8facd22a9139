import { Badge, Stack, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { categoryColor, categoryLabel } from '../api/categories.ts';

/** A badge that keeps its whole word when a long cell beside it squeezes the table (no "MANU…"). */
export function WholeBadge(props: BadgeProps & { children: ReactNode }) {
  return <Badge variant="light" {...props} style={{ minWidth: 'max-content' }} />;
}

/** A ban's category as operators know it: SIP, Web, AMI, IAX or Manual, in its colour. */
export function CategoryBadge({ category }: { category: string }) {
  return <WholeBadge color={categoryColor(category)}>{categoryLabel(category)}</WholeBadge>;
}

/** The Category cell of the ban tables: the badge, and under it what the table says of the ban's origin. */
export function CategoryCell({ category, children }: { category: string; children: ReactNode }) {
  return (
    <Stack gap={2} align="flex-start">
      <CategoryBadge category={category} />
      {children}
    </Stack>
  );
}
