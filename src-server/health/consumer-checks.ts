import {
  type CursorRecord,
  DEFAULT_FEED_INTERVAL_MINUTES,
  feedSilentAfterMs,
  isFeedKey,
  SILENT_AFTER_MS,
} from '../firewall/export/index.ts';
import { watchedKeyRows } from '../storage/api-key-rows.ts';
import type { Db } from '../storage/database.ts';
import { duration, keyLabel, type Finding } from './finding.ts';

/** With bans in force, no key polling or fetching for this long (counted from start-up) is "no consumer". */
export const NO_CONSUMER_AFTER_MS = 15 * 60_000;
/** A source that was a bouncer and is refused with an unknown key: reported after 3 attempts, while it tried within the hour. */
const REFUSED_HOST_MIN_ATTEMPTS = 3;
const REFUSED_HOST_WATCH_MS = 60 * 60_000;

/** What the consumer checks read each tick: the cursors (memory), whether bans are in force, the start time. */
export interface ConsumerInputs {
  db: Db;
  now: number;
  startedAt: number;
  cursors: Iterable<Readonly<CursorRecord>>;
  /** Sources served before and now refused with an unknown key (BouncerHosts.refusedFormerHosts). */
  refusedFormerHosts: (since: number) => Array<{ ip: string; reason: string; count: number; keyIds: number[] }>;
  bansInForce: () => boolean;
}

/**
 * A stream bouncer's own interval, learnt from its polls between ticks: the time its polls took
 * divided by how many came. Before one is learnt, the SPEC's 10 s.
 */
export class PollIntervals {
  private readonly seen = new Map<number, { polls: number; at: number; intervalMs: number | null }>();

  observe(cursor: Readonly<CursorRecord>): number | null {
    const previous = this.seen.get(cursor.keyId);
    const at = cursor.lastPollAt ?? 0;
    let intervalMs = previous?.intervalMs ?? null;
    if (previous && cursor.polls > previous.polls && at > previous.at)
      intervalMs = (at - previous.at) / (cursor.polls - previous.polls);
    this.seen.set(cursor.keyId, { polls: cursor.polls, at, intervalMs });
    return intervalMs;
  }
}

/**
 * Per key (bouncer-silent, feed-not-fetched, key-refused) and for the whole site (no-consumer),
 * each judged by the consumer's kind: a stream bouncer by three of its own intervals (at least
 * 30 s), a router feed by three of the interval the console offered its key. Silence is counted
 * from start-up at the earliest (nobody could poll a stopped server). Disabled and expired keys
 * are not watched for silence; a key refused since its last served poll is reported as refused.
 */
export function consumerFindings(inputs: ConsumerInputs, intervals: PollIntervals): Finding[] {
  const { db, now, startedAt } = inputs;
  const keys = new Map(watchedKeyRows(db).map((row) => [row.id, row]));
  const findings: Finding[] = [];
  let lastPoll = startedAt;
  for (const cursor of inputs.cursors) {
    const key = keys.get(cursor.keyId);
    if (!key) continue;
    const name = keyLabel(key.id, key.description);
    const redacted = `API key #${key.id}`;
    const action = `API keys › ${key.description || redacted}`;
    if (cursor.lastPollAt !== null) lastPoll = Math.max(lastPoll, cursor.lastPollAt);
    const feed = isFeedKey(cursor);
    const interval = feed ? null : intervals.observe(cursor);
    if (cursor.refusal && cursor.refusal.at > (cursor.lastPollAt ?? 0)) {
      const why = `${cursor.refusal.reason} (from ${cursor.refusal.ip})`;
      findings.push({
        id: `key-refused:${key.id}`,
        kind: 'key-refused',
        severity: 'critical',
        title: `Key ${name} is refused on every attempt: ${why}`,
        redactedTitle: `Key ${redacted} is refused on every attempt: ${why}`,
        recoveredTitle: `Key ${name} is served again`,
        action,
        area: 'api-keys',
      });
      continue;
    }
    const inactive = key.disabled_at !== null || (key.expires_at !== null && Date.parse(key.expires_at) <= now);
    if (cursor.lastPollAt === null || inactive) continue;
    const silentFor = now - Math.max(cursor.lastPollAt, startedAt);
    if (feed) {
      if (silentFor <= feedSilentAfterMs(key.feed_interval_minutes)) continue;
      const every = key.feed_interval_minutes ?? DEFAULT_FEED_INTERVAL_MINUTES;
      const words = `not been fetched for 3 of its ${every}-minute intervals`;
      findings.push({
        id: `feed-not-fetched:${key.id}`,
        kind: 'feed-not-fetched',
        severity: 'warning',
        title: `Router feed ${name} has ${words}`,
        redactedTitle: `Router feed ${redacted} has ${words}`,
        recoveredTitle: `Router feed ${name} is fetched again`,
        action,
        area: 'api-keys',
      });
    } else {
      if (silentFor <= Math.max(SILENT_AFTER_MS, 3 * (interval ?? 0))) continue;
      const words = `not polled for 3 of its intervals (every ${interval === null ? '10 s' : duration(interval)})`;
      findings.push({
        id: `bouncer-silent:${key.id}`,
        kind: 'bouncer-silent',
        severity: 'warning',
        title: `Bouncer ${name} has ${words}`,
        redactedTitle: `Bouncer ${redacted} has ${words}`,
        recoveredTitle: `Bouncer ${name} polls again`,
        action,
        area: 'api-keys',
      });
    }
  }
  for (const host of inputs.refusedFormerHosts(now - REFUSED_HOST_WATCH_MS)) {
    if (host.count < REFUSED_HOST_MIN_ATTEMPTS) continue;
    const formerKey = keys.get(host.keyIds[0]!);
    const served = formerKey ? `, last served with key ${keyLabel(formerKey.id, formerKey.description)}` : '';
    const redactedServed = formerKey ? `, last served with API key #${formerKey.id}` : '';
    const why = `${host.reason} (${host.count} attempts)`;
    findings.push({
      id: `key-refused:${host.ip}`,
      kind: 'key-refused',
      severity: 'critical',
      title: `The bouncer at ${host.ip}${served} is refused on every attempt: ${why}`,
      redactedTitle: `The bouncer at ${host.ip}${redactedServed} is refused on every attempt: ${why}`,
      recoveredTitle: `The bouncer at ${host.ip} is no longer refused`,
      action: formerKey
        ? `API keys › ${formerKey.description || `API key #${formerKey.id}`}: give the bouncer its key`
        : 'API keys',
      area: 'api-keys',
    });
  }
  if (now - lastPoll > NO_CONSUMER_AFTER_MS && inputs.bansInForce())
    findings.push({
      id: 'no-consumer',
      kind: 'no-consumer',
      severity: 'critical',
      title: `Bans are in force but no bouncer or router has fetched them for ${duration(NO_CONSUMER_AFTER_MS)}`,
      recoveredTitle: 'A bouncer or router fetches the bans again',
      action: 'API keys: connect a bouncer or a router feed',
      area: 'api-keys',
    });
  return findings;
}
