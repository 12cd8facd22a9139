import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { createServer as CreateServer, PbxServer } from '../src-server/index.ts';
import type { DesktopSettings } from './desktop-settings.ts';

/**
 * Imports the server built by `npm run build:server` (out/server). It is not bundled into main: it owns worker
 * threads that load their own files.
 */
export async function loadBuiltServer(outDir: string): Promise<typeof CreateServer> {
  const entry = pathToFileURL(join(outDir, 'server', 'index.js')).href;
  return ((await import(/* @vite-ignore */ entry)) as typeof import('../src-server/index.ts')).createServer;
}

/** Starts the server with its data in the user's app-data folder, serving the built console. */
export async function startEmbeddedServer(
  outDir: string,
  userDataDir: string,
  settings: DesktopSettings,
  createServer?: typeof CreateServer,
): Promise<PbxServer> {
  const create = createServer ?? (await loadBuiltServer(outDir));
  const server = create({
    host: settings.host,
    port: settings.port,
    dataDir: join(userDataDir, 'data'),
    staticDir: join(outDir, 'renderer'),
    logLevel: process.env.PBX_LOG_LEVEL === 'silent' ? 'silent' : 'info',
  });
  try {
    await server.start();
  } catch (error) {
    // A half-started server (database open, workers up) must not keep the app alive behind the dialog.
    await server.stop().catch(() => undefined);
    throw error;
  }
  return server;
}
