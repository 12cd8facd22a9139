import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PbxServer } from '../src-server/index.ts';
import type { DesktopSettings } from './desktop-settings.ts';

/**
 * Loads the server built by `npm run build:server` (out/server) at runtime and starts it.
 * It is not bundled into main: the server owns worker threads that import their own files.
 */
export async function startEmbeddedServer(outDir: string, userDataDir: string, settings: DesktopSettings): Promise<PbxServer> {
  const entry = pathToFileURL(join(outDir, 'server', 'index.js')).href;
  const { createServer } = (await import(/* @vite-ignore */ entry)) as typeof import('../src-server/index.ts');
  const server = createServer({
    host: settings.host,
    port: settings.port,
    dataDir: join(userDataDir, 'data'),
    staticDir: join(outDir, 'renderer'),
    logLevel: 'info',
  });
  await server.start();
  return server;
}
