import { networkInterfaces } from 'node:os';
import type { Logger } from 'pino';
import type { ServerBus } from './bus.ts';
import type { Clock } from './clock.ts';
import type { BanStore } from './firewall/bans/index.ts';
import { hostsSeenSince } from './firewall/export/index.ts';
import type { Db } from './storage/database.ts';
import type { AuditRejection } from './wire/types.ts';

/** A refusal of the same kind from the same source is repeated in the terminal at most this often. */
export const REPEAT_WARNING_MS = 10 * 60_000;
/** A bouncer that polled and then stayed quiet this long is reported (polls come every 5-10 s). */
export const SILENT_AFTER_MS = 2 * 60_000;
/** Bouncers quiet for longer than this are old history, not news. */
const SILENCE_HORIZON_MS = 24 * 60 * 60_000;
const SILENCE_CHECK_MS = 30_000;

/**
 * Every URL the server answers on: one per local address when it listens on all of them (0.0.0.0
 * or ::), else the one address it was given.
 */
export function listenUrls(host: string, port: number, scheme = 'http'): string[] {
  const url = (address: string) => `${scheme}://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const wildcard = host === '0.0.0.0' || host === '::';
  if (!wildcard) return [url(host)];
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter(
      (entry) =>
        entry !== undefined && (host === '::' || entry.family === 'IPv4') && !entry.address.startsWith('fe80:'),
    )
    .map((entry) => entry!.address);
  return addresses.length ? addresses.map(url) : [url(host)];
}

/** Refusals (rejected keys, failed logins) as warnings: the first at once, repeats summed up per window. */
export class RefusalWarnings {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  report(entry: AuditRejection): void {
    const who = entry.kind === 'failed-login' ? `login:${entry.login ?? ''}` : `key:${entry.keyId ?? 'unknown'}`;
    const id = `${entry.kind}|${who}|${entry.address}|${entry.reason}`;
    const now = this.clock.now();
    const seen = this.last.get(id);
    if (seen && now - seen.at < REPEAT_WARNING_MS) {
      seen.suppressed += 1;
      return;
    }
    const repeated = seen?.suppressed ? { repeatedSinceLastLine: seen.suppressed } : {};
    this.last.set(id, { at: now, suppressed: 0 });
    if (this.last.size > 10_000) this.last.delete(this.last.keys().next().value!);
    if (entry.kind === 'failed-login') {
      this.logger.warn({ login: entry.login, ip: entry.address, reason: entry.reason, ...repeated }, 'failed login');
    } else {
      this.logger.warn(
        {
          keyId: entry.keyId,
          ip: entry.address,
          path: entry.path,
          status: entry.status,
          reason: entry.reason,
          ...repeated,
        },
        'API key refused',
      );
    }
  }
}

/** Bouncers (key, source address) that polled and went quiet: one warning when they stop, one line when they are back. */
export class SilentBouncerWatch {
  private readonly silent = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  check(): void {
    const now = this.clock.now();
    const rows = hostsSeenSince(this.db, now - SILENCE_HORIZON_MS);
    for (const row of rows) {
      const id = `${row.keyId}@${row.ip}`;
      const quiet = now - row.lastSeen >= SILENT_AFTER_MS;
      if (quiet && !this.silent.has(id)) {
        this.silent.add(id);
        this.logger.warn(
          { keyId: row.keyId, key: row.description, ip: row.ip, lastPoll: new Date(row.lastSeen).toISOString() },
          `bouncer silent: no poll for ${Math.round((now - row.lastSeen) / 60_000)} min`,
        );
      } else if (!quiet && this.silent.delete(id)) {
        this.logger.info({ keyId: row.keyId, key: row.description, ip: row.ip }, 'bouncer polling again');
      }
    }
  }
}

/**
 * What the operator reads in the terminal at the default level, besides start and stop: configuration
 * changes, bans and lifts (info), refused keys, failed logins and silent bouncers (warn). Requests
 * themselves are logged one line each at debug (http/middleware.ts accessLog).
 */
export function startTerminalLog(deps: {
  bus: ServerBus;
  bans: BanStore;
  db: Db;
  clock: Clock;
  logger: Logger;
}): () => void {
  const { bus, bans, db, clock, logger } = deps;
  const refusals = new RefusalWarnings(logger, clock);
  const silence = new SilentBouncerWatch(db, clock, logger);
  const offs = [
    bus.on('resource-changed', (event) =>
      logger.info({ resource: event.resource }, `configuration changed: ${event.resource}`),
    ),
    bus.on('access-rejected', (event) => refusals.report(event.entry)),
  ];
  let active = true;
  bans.onChange((change) => {
    if (!active || change.reset) return;
    const before = new Set(change.removed.map((ban) => ban.id));
    const after = new Set(change.added.map((ban) => ban.id));
    for (const ban of change.added) {
      if (!before.has(ban.id))
        logger.info(
          { ip: ban.ip, category: ban.category, until: new Date(ban.expiresAt).toISOString(), reason: ban.reason },
          `banned ${ban.ip}`,
        );
    }
    for (const ban of change.removed) {
      if (!after.has(ban.id)) logger.info({ ip: ban.ip, category: ban.category }, `ban lifted: ${ban.ip}`);
    }
  });
  const timer = setInterval(() => silence.check(), SILENCE_CHECK_MS);
  timer.unref();
  return () => {
    active = false;
    clearInterval(timer);
    for (const off of offs) off();
  };
}
