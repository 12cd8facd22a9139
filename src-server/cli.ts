#!/usr/bin/env node
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { adminCommand, ADMIN_USAGE } from './auth/admin-cli.ts';
import { BACKUP_USAGE, exportCommand, importCommand } from './resources/backup/backup-cli.ts';
import { ConfigError, configFromEnv, createServer, resolveConfig } from './index.ts';
import { packageRoot, packageVersion } from './package-info.ts';

const USAGE = `Usage: pbx-console <command> [options]

Commands:
  serve     Start the API server and the console (default)
            --host <addr>       listen address (PBX_HOST, default 0.0.0.0)
            --port <n>          HTTP port; 0 picks a free one (PBX_PORT, default 8088)
            --data-dir <dir>    data directory (PBX_DATA_DIR, default ./data)
            --https-port <n>    optional HTTPS port (PBX_HTTPS_PORT)
${ADMIN_USAGE}${BACKUP_USAGE}  help      Show this text
`;

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'https-port': { type: 'string' },
    },
    strict: true,
  });
  const flags = Object.fromEntries(
    Object.entries({
      host: values.host,
      port: values.port,
      dataDir: values['data-dir'],
      httpsPort: values['https-port'],
    }).filter(([, v]) => v !== undefined),
  );
  const staticDir = join(packageRoot(), 'out', 'renderer');
  const config = resolveConfig({ staticDir }, configFromEnv(), flags);
  const server = createServer(config);
  await server.start();
  console.log(`PBX Console listening on ${server.url}`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Error while stopping after ${signal}:`, error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** Commands by name; features add theirs (admin, keys). */
const commands: Record<string, (argv: string[]) => Promise<void>> = {
  serve,
  admin: adminCommand,
  export: exportCommand(packageVersion),
  import: importCommand,
  help: async () => {
    process.stdout.write(USAGE);
  },
};

async function main(): Promise<void> {
  const [command = 'serve', ...rest] = process.argv.slice(2);
  const run = commands[command];
  if (!run) {
    process.stderr.write(`Unknown command "${command}".\n\n${USAGE}`);
    process.exit(2);
  }
  await run(rest);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else if ((error as { code?: string }).code === 'EADDRINUSE')
    console.error(`Cannot listen: ${(error as Error).message}. Choose another --port.`);
  else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
    console.error(`${(error as Error).message}\n\n${USAGE}`);
  else console.error(error);
  process.exit(1);
});
