import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** A TCP port free on 127.0.0.1 right now (for settings that take a fixed port). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/** The SHA-256 fingerprint a client is shown in a fresh TLS handshake on 127.0.0.1:`port`. */
export function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const fingerprint = socket.getPeerX509Certificate()?.fingerprint256 ?? '';
      socket.end();
      resolve(fingerprint);
    });
    socket.on('error', reject);
  });
}
