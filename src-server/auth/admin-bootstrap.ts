import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../storage/database.ts';
import { adminPasswordSet, ADMIN_LOGIN, setUserPassword } from './users.ts';

/**
 * Applies PBX_ADMIN_PASSWORD on the first start of `admin` (it has no password yet), whatever other
 * accounts exist; later starts leave it alone.
 */
export async function applyInitialAdminPassword(
  deps: { db: Db; clock: Clock; logger: Logger },
  initial: string | undefined,
): Promise<void> {
  if (!initial) return;
  if (!adminPasswordSet(deps.db)) {
    await setUserPassword(deps.db, ADMIN_LOGIN, initial, 'admin', deps.clock.now());
    deps.logger.info('admin password set from PBX_ADMIN_PASSWORD');
  } else {
    deps.logger.info('PBX_ADMIN_PASSWORD not applied: the admin account already has a password');
  }
}
