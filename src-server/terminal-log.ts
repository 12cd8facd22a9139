import { networkInterfaces } from 'node:os';
import type { Logger } from 'pino';
import type { ServerBus } from './bus.ts';
import type { Clock } from './clock.ts';
import type { BanStore } from './firewall/bans/index.ts';
import { apiKeyDescription } from './storage/api-key-rows.ts';
import type { Db } from './storage/database.ts';
import type { AuditRejection, HealthCheckState } from './wire/types.ts';

/** A refusal of the same kind from the same source is repeated in the terminal at most this often. */
export const REPEAT_WARNING_MS = 10 * 60_000;

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
    /** A key's name (its description), so a refused key is never named by its number alone. */
    private readonly keyName: (keyId: number) => string | undefined = () => undefined,
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
          key: entry.keyId === undefined ? undefined : this.keyName(entry.keyId),
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

/**
 * A health check's change as one terminal line (docs/health.md): a failure at warn (error when
 * critical), each reminder of one that stays failing at warn, a recovery at info. The words name
 * the key or account; the fields carry the check's id, kind and where to act.
 */
export function logHealthChange(logger: Logger, check: HealthCheckState): void {
  const fields = { check: check.id, kind: check.kind, severity: check.severity, action: check.action };
  if (check.state === 'ok') {
    const after =
      check.failedForMs === undefined ? '' : ` after ${Math.max(1, Math.round(check.failedForMs / 60_000))} min`;
    logger.info(fields, `health ok${after}: ${check.title}`);
  } else if (check.reminder) {
    const minutes = Math.round((check.failedForMs ?? 0) / 60_000);
    logger.warn(fields, `health still failing (${minutes} min): ${check.title}`);
  } else if (check.severity === 'critical') logger.error(fields, `health: ${check.title}`);
  else logger.warn(fields, `health: ${check.title}`);
}

/**
 * What the operator reads in the terminal at the default level, besides start and stop: configuration
 * changes, bans and lifts (info), refused keys and failed logins (warn), and the health checks'
 * changes (failing consumers, links, surges: logHealthChange). Requests
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
  const keyName = (keyId: number) => apiKeyDescription(db, keyId);
  const refusals = new RefusalWarnings(logger, clock, keyName);
  const offs = [
    bus.on('resource-changed', (event) =>
      logger.info({ resource: event.resource }, `configuration changed: ${event.resource}`),
    ),
    bus.on('access-rejected', (event) => refusals.report(event.entry)),
    bus.on('health-changed', (event) => logHealthChange(logger, event.check)),
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
  return () => {
    active = false;
    for (const off of offs) off();
  };
}
