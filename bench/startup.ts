// Benchmark: time from spawning the built CLI (`out/server/cli.js serve`) to its "listening" line,
// with a fresh data directory (migrations run) and with an existing one. Prints JSON.
//   npm run build:server && node --import tsx bench/startup.ts [runs]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = 'out/server/cli.js';
const runs = Number(process.argv[2] ?? 5);
if (!existsSync(CLI)) {
  console.error(`${CLI} is missing: run "npm run build:server" first.`);
  process.exit(1);
}

/** Milliseconds until the CLI prints its listening line; the process is then stopped. */
function timeToReady(dataDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir], {
      env: { ...process.env, PBX_LOG_LEVEL: 'silent' },
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('listening on')) return;
      const ms = performance.now() - started;
      child.once('exit', () => resolve(Math.round(ms)));
      child.kill('SIGTERM');
    });
    child.once('error', reject);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fresh: number[] = [];
const existing: number[] = [];
for (let i = 0; i < runs; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'pbx-startup-'));
  fresh.push(await timeToReady(dataDir));
  existing.push(await timeToReady(dataDir));
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  JSON.stringify(
    {
      benchmark: 'startup',
      runs,
      freshDataDirMs: { median: median(fresh), all: fresh },
      existingDataDirMs: { median: median(existing), all: existing },
      targetMsBelow: 1000,
    },
    null,
    2,
  ),
);
