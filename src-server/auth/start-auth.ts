import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../storage/database.ts';
import { applyInitialAdminPassword } from './admin-bootstrap.ts';
import { createAuthRuntime, type AuthRuntime } from './runtime.ts';

/** The web thread's auth state (JWT secret, login limiter), after PBX_ADMIN_PASSWORD on a first start. */
export async function startAuth(
  deps: { dataDir: string; db: Db; clock: Clock; logger: Logger },
  adminPassword: string | undefined,
): Promise<AuthRuntime> {
  const auth = createAuthRuntime(deps.dataDir, deps.clock);
  await applyInitialAdminPassword(deps, adminPassword);
  return auth;
}
