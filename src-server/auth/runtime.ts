import type { Clock } from '../clock.ts';
import { loadJwtSecret } from './jwt.ts';
import { LoginLimiter } from './login-limiter.ts';

/** Web-thread auth state for one running server: the JWT secret and the login limiter. */
export interface AuthRuntime {
  jwtSecret: Uint8Array;
  loginLimiter: LoginLimiter;
}

/** Reads (or creates) the JWT secret in `dataDir` and starts an empty login limiter; built once per start. */
export function createAuthRuntime(dataDir: string, clock: Clock): AuthRuntime {
  return { jwtSecret: loadJwtSecret(dataDir), loginLimiter: new LoginLimiter(() => clock.now()) };
}
