import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts a stand-in server (a fake upstream) on an ephemeral loopback port; answers its base URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Stops a stand-in server now: its keep-alive connections are cut rather than waited for. */
export async function closeNow(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
}
