import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { RequestListener } from 'node:http';
import { readSingleton } from '../resources/singleton.ts';
import { HTTPS_RUNTIME_KEY, HTTPS_SETTING_KEY, httpsDeclaration } from '../resources/https/declaration.ts';
import type { Services } from '../services.ts';
import { writeSetting } from '../storage/settings.ts';
import { configuredCertificate, selfSignedCertificate, summarizeCertificate, type CertificateSummary } from './tls-certificate.ts';

/** What system:getCertificate reports (stored in settings, since workers cannot see the listener). */
export type HttpsRuntime =
  | ({ enabled: true; port: number; source: 'self-signed' | 'configured'; certificateFile: string } & CertificateSummary)
  | { enabled: false; port: null; fingerprint256: null; subject: null; validTo: null };

export interface HttpsListener {
  port: number;
  close(): Promise<void>;
}

const DISABLED: HttpsRuntime = { enabled: false, port: null, fingerprint256: null, subject: null, validTo: null };

/**
 * Starts the optional HTTPS listener on the same app: the port comes from PBX_HTTPS_PORT
 * (config.httpsPort) or else from the `https` singleton when enabled. Returns undefined when off.
 */
export async function startHttpsListener(services: Services, callback: RequestListener): Promise<HttpsListener | undefined> {
  const settings = readSingleton(httpsDeclaration, services, HTTPS_SETTING_KEY);
  const port = services.config.httpsPort ?? (settings.enabled === true ? Number(settings.port) : undefined);
  if (port === undefined) {
    writeSetting(services.db, HTTPS_RUNTIME_KEY, DISABLED);
    return undefined;
  }
  const certPath = String(settings.certificatePath ?? '');
  const keyPath = String(settings.privateKeyPath ?? '');
  const material = certPath && keyPath ? configuredCertificate(certPath, keyPath) : await selfSignedCertificate(resolve(services.config.dataDir));
  const server: Server = createHttpsServer({ cert: material.cert, key: material.key, minVersion: 'TLSv1.2' }, callback);
  server.on('tlsClientError', () => undefined); // scanners and bad handshakes are not server errors
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, services.config.host, () => {
      server.off('error', fail);
      done();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const runtime: HttpsRuntime = { enabled: true, port: actualPort, source: material.source, certificateFile: material.certificateFile, ...summarizeCertificate(material.cert) };
  writeSetting(services.db, HTTPS_RUNTIME_KEY, runtime);
  services.logger.info({ port: actualPort, source: material.source, fingerprint256: runtime.fingerprint256 }, 'https listening');
  return {
    port: actualPort,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
