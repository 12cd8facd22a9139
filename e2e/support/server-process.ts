import { spawn, type ChildProcess } from 'node:child_process';
import { cliArgs } from '../../src-server/test-support/cli.ts';

/** The product's server as its own process (`pbx-console serve`), to be killed as a crash would. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

/** Starts the server on `dataDir` on a free loopback port; resolves once it listens. */
export function startServerProcess(dataDir: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, cliArgs('serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir), {
    env: { ...process.env, PBX_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]!.replace(/\/$/, '') });
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out}`)));
  });
}

/** SIGKILL: no stop handler runs, as in a power cut or an OOM kill. Resolves once the process is gone. */
export function killServerProcess(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}
