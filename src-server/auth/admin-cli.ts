import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { configFromEnv, resolveConfig } from '../config/load.ts';
import { openDatabase } from '../storage/database.ts';
import { migrate } from '../storage/migrations.ts';
import { revokeUserSessions } from './login-sessions.ts';
import { passwordProblems } from './passwords.ts';
import { ADMIN_LOGIN, findUser, setUserPassword } from './users.ts';

export const ADMIN_USAGE = `  admin set-password   Set a console password (there is no default one)
            --password <pw>     the password; without it, read from stdin (one line)
            --login <name>      account (default admin)
            --role admin|viewer role when creating another account (default viewer; admin stays admin)
            --data-dir <dir>    data directory (PBX_DATA_DIR, default ./data)
`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** `pbx-console admin set-password`: sets a password directly in the data directory's database. */
export async function adminCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      password: { type: 'string' },
      login: { type: 'string' },
      role: { type: 'string' },
      'data-dir': { type: 'string' },
    },
    strict: true,
  });
  if (positionals[0] !== 'set-password' || positionals.length > 1) {
    process.stderr.write(`Usage: pbx-console admin set-password [options]\n${ADMIN_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const login = values.login ?? ADMIN_LOGIN;
  const role = values.role ?? (login === ADMIN_LOGIN ? 'admin' : 'viewer');
  const password = values.password ?? (await readStdin());
  const problems = [
    role !== 'admin' && role !== 'viewer' ? '--role must be admin or viewer.' : '',
    login === ADMIN_LOGIN && role !== 'admin' ? 'The admin account keeps the admin role.' : '',
    /^[A-Za-z0-9._@-]{1,64}$/.test(login) ? '' : '--login may use letters, digits and . _ @ - (up to 64 characters).',
    ...passwordProblems(password),
  ].filter(Boolean);
  if (problems.length) {
    process.stderr.write(`${problems.join('\n')}\n`);
    process.exitCode = 1;
    return;
  }

  const config = resolveConfig(configFromEnv(), values['data-dir'] ? { dataDir: values['data-dir'] } : {});
  const db = openDatabase(join(resolve(config.dataDir), 'pbx.sqlite'));
  try {
    migrate(db);
    const existed = findUser(db, login) !== undefined;
    await setUserPassword(db, login, password, role as 'admin' | 'viewer');
    if (existed) revokeUserSessions(db, login, Date.now());
    process.stdout.write(
      `Password ${existed ? 'changed' : 'set'} for ${login} (${role}).${existed ? ' Its sessions were logged out.' : ''}\n`,
    );
  } finally {
    db.close();
  }
}
