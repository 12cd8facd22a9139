import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { RequestListener } from 'node:http';
import { answerConnect } from './middleware.ts';
import { readSingleton } from '../resources/singleton.ts';
import { HTTPS_RUNTIME_KEY, HTTPS_SETTING_KEY, httpsDeclaration } from '../resources/https/declaration.ts';
import type { Services } from '../services.ts';
import { writeSetting } from '../storage/settings.ts';
import { configuredCertificate, selfSignedCertificate, summarizeCertificate, type CertificateSummary } from '../tls/tls-certificate.ts';

/** What system:getCertificate reports (stored in settings, since workers cannot see the listener). */
export type HttpsRuntime =
  | ({ enabled: true; port: number; source: 'self-signed' | 'configured'; certificateFile: string } & CertificateSummary)
  | { enabled: false; port: null; fingerprint256: null; subject: null; validTo: null; error?: string };

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
  const fromConfig = services.config.httpsPort !== undefined;
  const port = services.config.httpsPort ?? (settings.enabled === true ? Number(settings.port) : undefined);
  if (port === undefined) {
    writeSetting(services.db, HTTPS_RUNTIME_KEY, DISABLED);
    return undefined;
  }
  try {
    return await listen(services, callback, port, settings);
  } catch (error) {
    // PBX_HTTPS_PORT is the operator's explicit choice: fail like the HTTP port would. A setting
    // saved through the API must not keep the server from starting: HTTP stays up, the error is shown.
    if (fromConfig) throw error;
    const message = error instanceof Error ? error.message : String(error);
    services.logger.error({ err: error, port }, 'https listener not started');
    writeSetting(services.db, HTTPS_RUNTIME_KEY, { ...DISABLED, error: `HTTPS was not started: ${message}` });
    return undefined;
  }
}

async function listen(services: Services, callback: RequestListener, port: number, settings: Record<string, unknown>): Promise<HttpsListener> {
  const certPath = String(settings.certificatePath ?? '');
  const keyPath = String(settings.privateKeyPath ?? '');
  const material = certPath && keyPath ? configuredCertificate(certPath, keyPath) : await selfSignedCertificate(resolve(services.config.dataDir));
  const server: Server = createHttpsServer({ cert: material.cert, key: material.key, minVersion: 'TLSv1.2' }, callback);
  server.on('tlsClientError', () => undefined); // scanners and bad handshakes are not server errors
  server.on('connect', answerConnect); // 405 envelope, as on the HTTP port
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, services.config.host, () => {
      server.off('error', fail);
      done();
    });
  });
  server.on('error', (error) => services.logger.error({ err: error }, 'https listener error'));
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
