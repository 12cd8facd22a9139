import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI's source, run through tsx as the tests run everything. */
export const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url));

/**
 * Node's arguments to run the CLI: the build of this tree when the test runner made one (PBX_BUILT_SERVER, see
 * queue/start-queue.ts), which listens in half the time tsx takes; else the source through tsx.
 */
export function cliArgs(...args: string[]): string[] {
  const built = process.env.PBX_BUILT_SERVER;
  return built ? [join(built, 'cli.js'), ...args] : ['--import', 'tsx', CLI, ...args];
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end with `stdin` (empty by default) and logging silenced; resolves with what it printed. */
export async function runCli(args: string[], stdin = ''): Promise<CliRun> {
  const child = spawn(process.execPath, cliArgs(...args), {
    env: { ...process.env, PBX_LOG_LEVEL: 'silent' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(stdin);
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

export interface ServeProcess {
  child: ChildProcess;
  /** The URL of the "listening on" line; rejects if the process exits first. */
  url: Promise<string>;
  /** Everything printed on stdout so far. */
  stdout(): string;
}

/** Starts `serve` on an ephemeral loopback port over `dataDir`, logging silenced (stderr piped unless inherited). */
export function spawnServe(dataDir: string, stderr: 'pipe' | 'inherit' = 'pipe'): ServeProcess {
  const child = spawn(process.execPath, cliArgs('serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir), {
    env: { ...process.env, PBX_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', stderr],
  });
  let stdout = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
  return { child, url, stdout: () => stdout };
}
