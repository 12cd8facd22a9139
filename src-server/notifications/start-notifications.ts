import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { recordNotification } from '../audit/store.ts';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import { tryBackgroundWrite } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import type { HealthCheckState } from '../wire/types.ts';
import type { SendOutcome } from './channel-config.ts';
import { loadActiveRules, loadChannel, writeLastResult } from './channel-store.ts';
import { DeliveryQueue, type DeliveryJob, type DeliveryLimits } from './delivery-queue.ts';
import { testMessage } from './message.ts';
import { RuleDigests, ruleMatches } from './rule-digest.ts';
import { sendOnChannel } from './send.ts';
import { oneLine } from './text.ts';

/** How often due retries and digests are looked at. */
const TICK_MS = 5_000;
/** One attempt, connection to answer. */
const SEND_TIMEOUT_MS = 15_000;

export interface Notifications {
  /** Sends what is due now (retries, digests): the timer calls it, tests call it after moving the clock. */
  tick(): void;
  /** Resolves once no send is in flight. */
  idle(): Promise<void>;
  readonly queueLength: number;
}

export interface NotificationDeps {
  db: Db;
  clock: Clock;
  bus: ServerBus;
  logger: Logger;
  limits?: DeliveryLimits;
  timeoutMs?: number;
}

/**
 * The web thread's notifications: `health-changed` events go through the rules and their digests
 * to the bounded delivery queue; `notification-test` (from a worker's sendTest) queues a test.
 * Every attempt is in the audit log and the channel's lastResult; none carries a secret.
 */
export function startNotifications(deps: NotificationDeps): { notifications: Notifications; stop(): void } {
  const { db, clock, bus, logger } = deps;
  const site = () => oneLine(hostname(), 64) || 'PBX';
  const digests = new RuleDigests(site);
  const report = (error: unknown) =>
    logger.warn({ err: error }, 'notifications: a database write waits for the next tick');

  // A send still in flight at stop() ends after the database closed: its outcome is only logged.
  let stopped = false;
  const record = (job: DeliveryJob, operation: 'send' | 'send-failed' | 'dropped', outcome: SendOutcome) => {
    const what = job.message.test ? 'test message' : `"${job.message.subject}"`;
    const reason = oneLine(`${what}, attempt ${job.attempt}: ${outcome.message}`, 400);
    if (!stopped)
      tryBackgroundWrite(
        db,
        () => {
          recordNotification(db, {
            at: clock.now(),
            channelId: job.channelId,
            operation,
            status: outcome.status,
            reason,
          });
          if (operation !== 'dropped') writeLastResult(db, job.channelId, outcome, clock.now(), job.message.test);
        },
        report,
      );
    const line = { channelId: job.channelId, attempt: job.attempt, outcome: outcome.message };
    if (operation === 'send') logger.info(line, 'notification sent');
    else logger.warn(line, operation === 'dropped' ? 'notification dropped' : 'notification failed');
  };

  const queue = new DeliveryQueue(
    clock,
    {
      send: async (job) => {
        const channel = loadChannel(db, job.channelId);
        if (!channel) return { ok: false, status: 0, message: 'the channel was deleted' };
        const outcome = await sendOnChannel(channel, job.message, {
          timeoutMs: deps.timeoutMs ?? SEND_TIMEOUT_MS,
          hostname: site(),
          now: clock.now(),
        });
        // A receiver may echo what it was sent (a token in an error page): it never reaches a log or an answer.
        return channel.secret ? { ...outcome, message: outcome.message.replaceAll(channel.secret, '••••') } : outcome;
      },
      settled: (job, outcome, final) => {
        if (outcome.ok) record(job, 'send', outcome);
        else {
          record(job, 'send-failed', outcome);
          if (final) record(job, 'dropped', { ...outcome, message: `given up after ${job.attempt} attempts` });
        }
      },
      dropped: (job) => record(job, 'dropped', { ok: false, status: 0, message: 'the send queue is full' }),
    },
    deps.limits,
  );

  const onHealth = (check: HealthCheckState) => {
    const now = clock.now();
    for (const rule of loadActiveRules(db).values()) {
      if (!ruleMatches(rule, check)) continue;
      const message = digests.offer(rule, check, now);
      if (message) queue.enqueue(rule.channelId, message);
    }
  };

  const tick = () => {
    for (const { rule, message } of digests.due(loadActiveRules(db), clock.now()))
      queue.enqueue(rule.channelId, message);
    queue.tick();
  };

  const stops = [
    bus.on('health-changed', (event) => onHealth(event.check)),
    bus.on('notification-test', (event) => {
      const channel = loadChannel(db, event.channelId);
      if (channel) queue.enqueue(channel.id, testMessage(oneLine(channel.name, 64), clock.now(), site()));
    }),
  ];
  const timer = setInterval(() => {
    try {
      tick();
    } catch (error) {
      report(error);
    }
  }, TICK_MS);
  timer.unref();

  return {
    notifications: {
      tick,
      idle: () => queue.idle(),
      get queueLength() {
        return queue.length;
      },
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      queue.close();
      for (const stop of stops) stop();
    },
  };
}
