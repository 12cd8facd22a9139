import type { BanKind } from '#shared/categories.ts';

export { SERVICE_CATEGORIES as BAN_SERVICES, type ServiceCategory as BanService } from '#shared/categories.ts';

/** Ban categories as the API names them, with the label operators know them by. */
export const BAN_CATEGORIES = [
  { value: 'sip', label: 'SIP', color: 'blue' },
  { value: 'http', label: 'Web', color: 'grape' },
  { value: 'ami', label: 'AMI', color: 'orange' },
  { value: 'iax', label: 'IAX', color: 'teal' },
  { value: 'manual', label: 'Manual', color: 'red' },
] as const satisfies readonly { value: BanKind; label: string; color: string }[];

/** Decisions of an upstream CrowdSec LAPI this server enforces (Many sites): listed with the bans, not this server's own. */
export const UPSTREAM_CATEGORY = { value: 'upstream', label: 'Upstream', color: 'gray' } as const;

const ALL_CATEGORIES = [...BAN_CATEGORIES, UPSTREAM_CATEGORY];
export const categoryLabel = (value: string) =>
  ALL_CATEGORIES.find((c) => c.value === value)?.label ?? value.toUpperCase();
export const categoryColor = (value: string) => ALL_CATEGORIES.find((c) => c.value === value)?.color ?? 'gray';
