import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Mode of every file this server keeps in the data directory (the database holds secrets). */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of the data directory and its subdirectories. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates the directory (and missing parents) and sets it to 0700, whatever the umask and
 * however an older version left it. Only `dir` itself is changed, never a parent such as /var/lib.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Creates `file` with `content` and mode 0600 when it does not exist yet (an existing file is left
 * as it is: two processes starting at once keep the first one's content). The mode is set with
 * fchmod after the open, so the umask cannot loosen or narrow it. Returns whether it was created.
 */
export function createPrivateFile(file: string, content: string | Uint8Array = ''): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
    if (content.length) writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Sets existing files to 0600 (files an older version created with the umask's mode). */
export function tightenFiles(...files: string[]): void {
  for (const file of files) if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}

/** Subdirectories of the data directory that hold only server-made files (the self-signed TLS pair). */
const PRIVATE_SUBDIRS = ['tls'];

/**
 * The data directory at start: 0700, and the files this server keeps in it (database, -wal, -shm,
 * jwt-secret, secrets.key, tls/) 0600, including those an older version created looser.
 * `modules/` is left alone: it holds code the operator installed.
 */
export function ensurePrivateDataDir(dataDir: string): void {
  ensurePrivateDir(dataDir);
  tightenFiles(...filesIn(dataDir));
  for (const name of PRIVATE_SUBDIRS) {
    const dir = join(dataDir, name);
    if (!existsSync(dir)) continue;
    chmodSync(dir, PRIVATE_DIR_MODE);
    tightenFiles(...filesIn(dir));
  }
}

function filesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(dir, entry.name));
}
