import { startTestServer, type TestServer } from '../../src-server/test-support/server.ts';
import type { CreateServerOptions } from '../../src-server/index.ts';
import { ensureRendererBuilt } from './renderer-build.ts';

/** The headless server on an ephemeral port with a fresh data directory, serving the built console. */
export async function startConsoleServer(options: CreateServerOptions = {}): Promise<TestServer> {
  const staticDir = await ensureRendererBuilt();
  return startTestServer({ staticDir, ...options });
}
