import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RENDERER_DIR = join(ROOT, 'out', 'renderer');
const SOURCES = [join(ROOT, 'src-renderer'), join(ROOT, 'electron.vite.config.ts')];
const LOCK = join(ROOT, 'out', '.renderer-build.lock');

function newestMtime(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

function isStale(): boolean {
  const built = statSync(join(RENDERER_DIR, 'index.html'), { throwIfNoEntry: false });
  return !built || Math.max(...SOURCES.map(newestMtime)) > built.mtimeMs;
}

/**
 * Builds the console once when out/renderer is missing or older than its sources, so the browser
 * tests work on a clean clone. Test files run in parallel processes: a lock file makes one build.
 */
export async function ensureRendererBuilt(): Promise<string> {
  if (!isStale()) return RENDERER_DIR;
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(LOCK, 'wx');
    } catch {
      // Another test process is building; a lock older than 3 minutes is left over from a crash.
      const lockAge = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (lockAge > 180_000) rmSync(LOCK, { force: true });
      if (Date.now() > deadline) throw new Error('Timed out waiting for another process to build the console.');
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (isStale()) {
        const cli = join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
        const result = spawnSync(process.execPath, [cli, 'build', '--logLevel', 'warn'], {
          cwd: ROOT,
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        if (result.status !== 0 || !existsSync(join(RENDERER_DIR, 'index.html')))
          throw new Error('Building the console (electron-vite build) failed.');
      }
      return RENDERER_DIR;
    } finally {
      closeSync(fd);
      rmSync(LOCK, { force: true });
    }
  }
}
