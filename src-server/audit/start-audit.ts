import type { Logger } from 'pino';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../storage/database.ts';
import { tryBackgroundWrite } from '../storage/background-write.ts';
import { AuditRecorder } from './recorder.ts';
import { recordAccountFlag } from './store.ts';

export interface AuditArea {
  audit: AuditRecorder;
  stop(): void;
}

/**
 * The web thread's audit recorder, fed by `access-rejected` events: rejected keys and failed logins,
 * accounts flagged behind registered phones (`account-flagged`), and the prune. Workers record the writes they run themselves.
 */
export function startAudit(deps: {
  db: Db;
  clock: Clock;
  bus: ServerBus;
  logger: Logger;
  retentionDays: () => number;
}): AuditArea {
  const { db, clock, bus, logger } = deps;
  const audit = new AuditRecorder({
    db,
    now: () => clock.now(),
    retentionDays: deps.retentionDays,
    onError: (error) => logger.error({ err: error }, 'audit log'),
  });
  const stopFeed = bus.on('access-rejected', (event) => audit.reject(event.entry));
  const stopFlags = bus.on('account-flagged', ({ flag }) =>
    tryBackgroundWrite(
      db,
      () => recordAccountFlag(db, flag),
      (error) => logger.error({ err: error }, 'audit log'),
    ),
  );
  return {
    audit,
    stop() {
      stopFeed();
      stopFlags();
      audit.stop();
    },
  };
}
