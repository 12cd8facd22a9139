import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './load-client.ts';

const CLIENT = fileURLToPath(new URL('./load-client.ts', import.meta.url));

/** Runs the load client in its own process (its own core) and returns its figures. */
export function runLoadInChild(
  url: string,
  connections: number,
  durationMs: number,
  headers: Record<string, string> = {},
  offeredRate?: number,
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        CLIENT,
        url,
        String(connections),
        String(durationMs),
        JSON.stringify(headers),
        ...(offeredRate ? [String(offeredRate)] : []),
      ],
      { maxBuffer: 1 << 20 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as LoadResult)),
    );
  });
}
