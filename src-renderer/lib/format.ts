/** "3 min 05 s", "2 h 10 min", "4 d 3 h": a compact duration for countdowns and ages. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

/** Parses a timestamp the API gives (ISO string, seconds or milliseconds) into epoch milliseconds. */
export function toMillis(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value;
  const numeric = Number(value);
  if (Number.isFinite(numeric)) return toMillis(numeric);
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

/** "12 s ago", "never". */
export function formatAgo(value: string | number | null | undefined, now = Date.now()): string {
  const ms = toMillis(value);
  if (ms === null) return 'never';
  return `${formatDuration((now - ms) / 1000)} ago`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The browser's zone as a short name for `date` ("UTC", "CET", "GMT+3"), shown beside every time. */
export function zoneName(date: Date): string {
  return (
    new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short' })
      .formatToParts(date)
      .find((part) => part.type === 'timeZoneName')?.value ?? ''
  );
}

/** "08:30" in local 24-hour time (chart axes, where the zone is said once). */
export function formatHourMinute(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** "08:30:12 CET": local 24-hour time with the zone. */
export function formatTime(value: string | number | null | undefined): string {
  const ms = toMillis(value);
  if (ms === null) return '—';
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${zoneName(date)}`;
}

/**
 * The console's one date format: "2026-11-22 08:30:12 CET", local time, 24-hour, the zone shown, so
 * no screen mixes 12-hour times with UTC.
 */
export function formatDateTime(value: string | number | null | undefined): string {
  const ms = toMillis(value);
  if (ms === null) return '—';
  const date = new Date(ms);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${formatTime(ms)}`;
}

/** A time as a date-time field holds it: "2026-11-22 08:30:12", local time, 24-hour (the zone is said beside it). */
export function formatLocalInput(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * A typed local time, "2026-11-22 08:30" or "2026-11-22 08:30:12" (a T between is read too), in epoch ms; NaN when
 * it is not one (a 13th month, 24:00, a 12-hour "pm"), so the field can say so rather than guess.
 */
export function parseLocalInput(text: string): number {
  const m = /^\s*(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?\s*$/.exec(text);
  if (!m) return NaN;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(y, mo - 1, d, h, mi, s);
  const same =
    date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d && date.getHours() === h && h < 24;
  return same && date.getMinutes() === mi ? date.getTime() : NaN;
}

/** The ISO instant of a typed local time (a filter's bound), or '' while it is empty or not a time yet. */
export function localInputInstant(text: string): string {
  const ms = text.trim() ? parseLocalInput(text) : NaN;
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString();
}

/** "1 entry", "3 entries": a count with the noun in the right number. */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The units a duration is shown and typed in, largest last. */
export const DURATION_UNITS = [
  { value: 's', label: 's', seconds: 1 },
  { value: 'min', label: 'min', seconds: 60 },
  { value: 'h', label: 'h', seconds: 3600 },
  { value: 'd', label: 'd', seconds: 86400 },
] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number]['value'];

/** An exact duration in whole units, for limits: 60 → "1 min", 2147483 → "24 d 20 h 31 min 23 s". */
export function formatExactDuration(totalSeconds: number): string {
  let rest = Math.max(0, Math.round(totalSeconds));
  const parts: string[] = [];
  for (const unit of [...DURATION_UNITS].reverse()) {
    const amount = Math.floor(rest / unit.seconds);
    if (amount > 0) parts.push(`${amount} ${unit.label}`);
    rest -= amount * unit.seconds;
  }
  return parts.join(' ') || '0 s';
}

/** `1st`, `2nd`, `3rd`, `11th`: a rank as words show it ("3rd ban"). */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}
