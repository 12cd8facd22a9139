import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpRelay {
  /** http://127.0.0.1:<relay port> */
  url: string;
  close(): Promise<void>;
}

/**
 * Forwards every connection to the target port, opening the upstream socket from `sourceAddress`
 * (127.0.0.2 by default). Chromium always connects from 127.0.0.1, so the relay is what makes the
 * browser a remote client for the server's localhost bypass.
 */
export async function startTcpRelay(targetPort: number, sourceAddress = '127.0.0.2'): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port: targetPort, localAddress: sourceAddress });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
