import { z } from 'zod';
import { serverConfigSchema, type ServerConfig, type ServerConfigInput } from './schema.ts';

/** Raised when the configuration is invalid; `problems` lists every offending setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const envNames: Record<string, keyof ServerConfigInput> = {
  PBX_HOST: 'host',
  PBX_PORT: 'port',
  PBX_HTTPS_PORT: 'httpsPort',
  PBX_DATA_DIR: 'dataDir',
  PBX_LOG_LEVEL: 'logLevel',
  PBX_ADMIN_PASSWORD: 'adminPassword',
  PBX_STATIC_DIR: 'staticDir',
  PBX_TRUSTED_HOSTS: 'trustedHosts',
  PBX_EXAMPLE_MODULES: 'exampleModules',
  PBX_CHECK_OUTPUTS: 'checkOutputs',
};

/** Reads the settings this server takes from the environment (`PBX_*`). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<ServerConfigInput> {
  const out: Record<string, string> = {};
  for (const [name, key] of Object.entries(envNames)) {
    const value = env[name];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out as Partial<ServerConfigInput>;
}

/** Validates defaults < given layers (later wins); throws ConfigError listing every problem. */
export function resolveConfig(...layers: Array<Partial<ServerConfigInput> | undefined>): ServerConfig {
  const merged = Object.assign({}, ...layers.filter(Boolean));
  const parsed = serverConfigSchema.safeParse(merged);
  if (!parsed.success) throw new ConfigError(formatIssues(parsed.error));
  return parsed.data;
}

function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
}
