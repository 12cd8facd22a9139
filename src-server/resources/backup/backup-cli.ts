import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { configFromEnv, resolveConfig } from '../../config/load.ts';
import { openDatabase, type Db } from '../../storage/database.ts';
import { migrate } from '../../storage/migrations.ts';
import { exportConfig, importConfig, type ImportReport } from './config-backup.ts';

export const BACKUP_USAGE = `  export    Print the configuration as JSON (stop the server first)
            --data-dir <dir>    data directory (PBX_DATA_DIR, default ./data)
            --secrets           include the AMI secret in clear
  import <file.json>  Replace the configuration from an export (stop the server first)
            --data-dir <dir>    data directory (PBX_DATA_DIR, default ./data)
            --dry-run           only print what would change
`;

const databaseFile = (dataDir: string | undefined) =>
  join(resolve(resolveConfig(configFromEnv(), dataDir ? { dataDir } : {}).dataDir), 'pbx.sqlite');

function withDatabase<T>(dataDir: string | undefined, run: (db: Db) => T): T {
  const db = openDatabase(databaseFile(dataDir));
  try {
    migrate(db);
    return run(db);
  } finally {
    db.close();
  }
}

/** `pbx-console export`: the same document as GET backup:exportConfig, on stdout. */
export function exportCommand(version: string) {
  return async (argv: string[]): Promise<void> => {
    const { values } = parseArgs({
      args: argv,
      options: { 'data-dir': { type: 'string' }, secrets: { type: 'boolean' } },
      strict: true,
    });
    // An export of a directory that holds no database would be an empty configuration, not a backup.
    if (!existsSync(databaseFile(values['data-dir']))) {
      process.stderr.write(
        `No PBX Console database in ${dirname(databaseFile(values['data-dir']))}: check --data-dir (or PBX_DATA_DIR).\n`,
      );
      process.exitCode = 1;
      return;
    }
    const doc = withDatabase(values['data-dir'], (db) =>
      exportConfig(db, { secrets: values.secrets === true, serverVersion: version, now: Date.now() }),
    );
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  };
}

function summary(report: ImportReport): string {
  const lines = [report.dryRun ? 'Dry run: nothing was written. The import would change:' : 'Imported. Changes:'];
  for (const [section, c] of Object.entries(report.sections)) {
    const parts = [
      c.added.length ? `added ${c.added.join(', ')}` : '',
      c.changed.length ? `changed ${c.changed.join(', ')}` : '',
      c.removed.length ? `removed ${c.removed.join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`  ${section}: ${parts.length ? parts.join('; ') : 'no change'}`);
  }
  if (report.sections.apiKeys.notRestored)
    lines.push(`  apiKeys: ${report.sections.apiKeys.notRestored} not restored. ${report.sections.apiKeys.note}`);
  for (const warning of report.warnings) lines.push(`  warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}

/** `pbx-console import <file>`: the same checks and transaction as POST backup:importConfig. */
export async function importCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' }, 'dry-run': { type: 'boolean' } },
    strict: true,
  });
  if (positionals.length !== 1) {
    process.stderr.write(`Usage: pbx-console import <file.json> [--data-dir <dir>] [--dry-run]\n`);
    process.exitCode = 2;
    return;
  }
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as unknown;
  } catch (error) {
    process.stderr.write(`Cannot read ${positionals[0]}: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  // The operator owns the data directory: the CLI may write the AMI secret.
  const outcome = withDatabase(values['data-dir'], (db) =>
    importConfig(db, config, { dryRun: values['dry-run'] === true, canWriteSecrets: true }),
  );
  if (!outcome.ok) {
    process.stderr.write(`Nothing was imported:\n${outcome.errors.map((e) => `  ${e}`).join('\n')}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(summary(outcome.report));
}
