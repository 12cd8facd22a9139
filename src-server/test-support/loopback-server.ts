import type { Server } from 'node:http';

/** Starts a stand-in server (a fake upstream) on an ephemeral loopback port. */
export async function listenOnLoopback(server: Server): Promise<void> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
}

/** Stops a stand-in server now: its keep-alive connections are cut rather than waited for. */
export async function closeNow(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
}
