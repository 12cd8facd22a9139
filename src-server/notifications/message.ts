import type { HealthCheckState } from '../wire/types.ts';
import { HEALTH_SEVERITIES } from './severity.ts';
import { bodyText, oneLine } from './text.ts';

/** What a channel sends: a subject line, lines of text, and the events behind them. */
export interface NotificationMessage {
  subject: string;
  text: string;
  /** The highest severity among the events (a recovery counts as `info`). */
  severity: HealthCheckState['severity'];
  /** Every event is a recovery. */
  recovery: boolean;
  events: HealthCheckState[];
  test: boolean;
  /** The rule that sent it (none for a test). */
  rule: string | null;
  /** Events the digest left out because it was full. */
  omitted: number;
}

const minutes = (ms: number) => {
  const total = Math.round(ms / 60_000);
  return total < 120 ? `${total} min` : `${Math.floor(total / 60)} h ${total % 60} min`;
};

/** One event in words: "fw1 has not polled for 42 min" or "Recovered: fw1 polls again (failing for 42 min)". */
export function eventLine(event: HealthCheckState): string {
  const title = oneLine(event.title, 160);
  if (event.state === 'ok')
    return `Recovered: ${title}${event.failedForMs !== undefined ? ` after ${minutes(event.failedForMs)}` : ''}`;
  return `${event.reminder ? 'Still failing' : event.severity === 'critical' ? 'Critical' : event.severity === 'warning' ? 'Warning' : 'Info'}: ${title}`;
}

const highest = (events: HealthCheckState[]) =>
  events
    .filter((e) => e.state === 'failing')
    .reduce<
      HealthCheckState['severity']
    >((top, e) => (HEALTH_SEVERITIES.indexOf(e.severity) > HEALTH_SEVERITIES.indexOf(top) ? e.severity : top), 'info');

/** The message of one rule for the events it gathered (one at once, or a digest of several). */
export function ruleMessage(rule: string, events: HealthCheckState[], omitted = 0, site = 'PBX'): NotificationMessage {
  const lines = events.map((event) => {
    const at = event.since ? `${event.since.replace('T', ' ').slice(0, 16)} UTC  ` : '';
    const action = event.action ? ` (${oneLine(event.action, 80)})` : '';
    return `${at}${eventLine(event)}${action}`;
  });
  if (omitted) lines.push(`… and ${omitted} more`);
  const subject =
    events.length === 1 && !omitted
      ? `${site}: ${eventLine(events[0]!)}`
      : `${site}: ${events.length + omitted} health changes (${rule})`;
  return {
    subject: oneLine(subject, 200),
    text: bodyText(`${lines.join('\n')}\n\nRule: ${oneLine(rule, 64)}`),
    severity: highest(events),
    recovery: events.every((e) => e.state === 'ok'),
    events,
    test: false,
    rule,
    omitted,
  };
}

/** The message of "send a test". */
export function testMessage(channel: string, at: number, site = 'PBX'): NotificationMessage {
  return {
    subject: oneLine(`${site}: test message for ${channel}`),
    text: bodyText(`This is a test from PBX Console, sent ${new Date(at).toISOString()}. Nothing is wrong.`),
    severity: 'info',
    recovery: false,
    events: [],
    test: true,
    rule: null,
    omitted: 0,
  };
}
