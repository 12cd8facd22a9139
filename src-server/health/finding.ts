import type { HealthCheckKind, HealthSeverity } from '../wire/types.ts';

/** Where the console sends the technician to act on a check (a console page). */
export const HEALTH_AREAS = ['api-keys', 'settings', 'bans', 'peers', 'audit'] as const;
export type HealthArea = (typeof HEALTH_AREAS)[number];

/** Every kind, for the output schema (the type lives in wire/types.ts). */
export const HEALTH_CHECK_KINDS = [
  'bouncer-silent',
  'feed-not-fetched',
  'no-consumer',
  'key-refused',
  'lapi-down',
  'lapi-queue',
  'ami-down',
  'cap-drops-own',
  'account-flagged',
  'attack-surge',
] as const satisfies readonly HealthCheckKind[];

/** A check failing now, as a check function finds it (the board adds since, reminders and recoveries). */
export interface Finding {
  id: string;
  kind: HealthCheckKind;
  severity: HealthSeverity;
  /** In words, naming the key or account. */
  title: string;
  /** The same without what maps this site (key names), for callers without SENSITIVE. */
  redactedTitle?: string;
  /** The line written when it recovers, e.g. `Bouncer "fw1" polls again`. */
  recoveredTitle: string;
  /** Where to act, in words ("API keys › fw1"), and the console page. */
  action: string;
  area: HealthArea;
  /** More in words: top sources and categories of a surge, a reason. */
  detail?: string;
}

/** `"fw1"`: a key's name as the checks quote it (its number only when it has none). */
export const keyLabel = (keyId: number, name: string | null | undefined): string =>
  name && name.trim() ? `"${name.trim()}"` : `API key #${keyId}`;

/** How long, in words: "40 s", "12 min", "3 h 5 min". */
export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}
