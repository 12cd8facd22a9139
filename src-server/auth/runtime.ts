import { resolve } from 'node:path';
import type { Services } from '../services.ts';
import { loadJwtSecret } from './jwt.ts';
import { LoginLimiter } from './login-limiter.ts';

/** Web-thread auth state for one running server: the JWT secret and the login limiter. */
export interface AuthRuntime {
  jwtSecret: Uint8Array;
  loginLimiter: LoginLimiter;
}

const runtimes = new WeakMap<Services, AuthRuntime>();

/** The auth state of this server, created on first use (the secret file is read once per start). */
export function authRuntime(services: Services): AuthRuntime {
  let runtime = runtimes.get(services);
  if (!runtime) {
    runtime = {
      jwtSecret: loadJwtSecret(resolve(services.config.dataDir)),
      loginLimiter: new LoginLimiter(() => services.clock.now()),
    };
    runtimes.set(services, runtime);
  }
  return runtime;
}
