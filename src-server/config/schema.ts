import { z } from 'zod';

/** An on/off setting: true or false, or from the environment 1/0, true/false, yes/no; off when absent. */
function onOffSetting(name: string, variable: string) {
  return z
    .preprocess(
      (value) => {
        if (typeof value !== 'string') return value;
        const text = value.trim().toLowerCase();
        return text === '1' || text === 'true' || text === 'yes'
          ? true
          : text === '0' || text === 'false' || text === 'no' || text === ''
            ? false
            : value;
      },
      z.boolean({ error: `${name} must be true or false (${variable}=1 or 0)` }),
    )
    .default(false);
}

/** Every setting the server accepts, with its default. One validated object, built once at start. */
export const serverConfigSchema = z.object({
  host: z.string().min(1, 'host must not be empty').default('0.0.0.0'),
  port: z.coerce.number().int().min(0).max(65535).default(8088),
  /** Optional HTTPS listener; absent means HTTP only. */
  httpsPort: z.coerce.number().int().min(0).max(65535).optional(),
  dataDir: z.string().min(1, 'dataDir must not be empty').default('./data'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Jobs run at once: worker threads in the request pool under load (SPEC: 3). */
  workers: z.coerce.number().int().min(1).max(32).default(3),
  /** Worker threads kept while idle (at most `workers`; docs/settings.md). */
  workerIdleThreads: z.coerce.number().int().min(1).max(32).default(2),
  /** A worker thread beyond `workerIdleThreads` exits after this long without a job (docs/settings.md). */
  workerIdleMs: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** Largest request body accepted, in bytes (1 KiB to 64 MiB; docs/settings.md). */
  bodyLimitBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /** The longest delay between two tries of the CrowdSec link while the LAPI fails (docs/settings.md). */
  linkRetryMaxMs: z.coerce.number().int().min(200).max(600_000).default(10_000),
  /** How long the web thread waits for a worker before answering 504 (SPEC: at least 30 s; tests go lower). */
  maxWaitMs: z.coerce.number().int().min(1).max(600_000).default(30_000),
  /** First admin password, applied only when none is set yet. */
  adminPassword: z.string().min(1).optional(),
  /** Built console files served at `/`; absent means API only. */
  staticDir: z.string().min(1).optional(),
  /** How long one extension module may take to load, in the web thread and in each worker, before it is skipped. */
  moduleLoadTimeoutMs: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * Host names (optionally `:port`) besides 127.0.0.1, [::1] and localhost under which a client on
   * this machine gets the localhost bypass (docs/auth.md). PBX_TRUSTED_HOSTS, comma-separated.
   */
  trustedHosts: z
    .preprocess(
      (value) =>
        typeof value === 'string'
          ? value
              .split(',')
              .map((entry) => entry.trim())
              .filter(Boolean)
          : value,
      z.array(
        z
          .string()
          .regex(
            /^(\[[0-9A-Fa-f:.]+\]|[^\s:/?#@[\],]+)(:\d{1,5})?$/,
            'trustedHosts entries are host names, optionally with :port',
          ),
      ),
    )
    .default([]),
  /**
   * Load the bundled example modules (resources/modules/: ExampleCallback, ExampleRoutes,
   * ExampleTasks). Off unless asked (PBX_EXAMPLE_MODULES=1): a real install serves only its own modules.
   */
  exampleModules: onOffSetting('exampleModules', 'PBX_EXAMPLE_MODULES'),
  /**
   * Check every custom method's answer against its declared output schema, answering 500 on a
   * mismatch (docs/architecture.md "Typed operations"). Off in production (it parses every answer
   * twice); the test servers and `npm run dev:server` turn it on (PBX_CHECK_OUTPUTS=1).
   */
  checkOutputs: onOffSetting('checkOutputs', 'PBX_CHECK_OUTPUTS'),
  /** Extra ES modules exporting resource declarations (module loader and tests use this). */
  resourceModules: z.array(z.string().min(1)).default([]),
});

export type ServerConfig = z.output<typeof serverConfigSchema>;
export type ServerConfigInput = z.input<typeof serverConfigSchema>;
