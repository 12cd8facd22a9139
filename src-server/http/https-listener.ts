import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext } from 'node:tls';
import { resolve } from 'node:path';
import type { RequestListener } from 'node:http';
import { answerClientError, answerConnect } from './middleware.ts';
import { HTTPS_RUNTIME_KEY } from '../resources/https/declaration.ts';
import { readHttpsIntent, type HttpsIntent } from '../resources/https/intent.ts';
import type { Services } from '../services.ts';
import { writeSetting } from '../storage/settings.ts';
import {
  configuredCertificate,
  selfSignedCertificate,
  summarizeCertificate,
  type CertificateSummary,
  type TlsMaterial,
} from '../tls/tls-certificate.ts';

/** What system:getCertificate reports (stored in settings, since workers cannot see the listener). */
export type HttpsRuntime = (
  | ({
      enabled: true;
      port: number;
      source: 'self-signed' | 'configured';
      certificateFile: string;
    } & CertificateSummary)
  | { enabled: false; port: null; fingerprint256: null; subject: null; validTo: null }
) & {
  /** The settings last applied (or tried): the console shows "applying" while the saved ones differ. */
  applied: HttpsIntent;
  /** Why the last change was not applied (port taken, unreadable certificate); the listener keeps its previous state. */
  error?: string;
};

export interface HttpsListener {
  /** The port HTTPS answers on now, or null when off. */
  readonly port: number | null;
  /** Brings the listener in line with the saved settings; calls run one after the other. */
  apply(): Promise<void>;
  close(): Promise<void>;
}

const OFF = { enabled: false, port: null, fingerprint256: null, subject: null, validTo: null } as const;
/** Requests in flight on a replaced listener get this long to finish before their sockets are closed. */
const DRAIN_MS = 10_000;

interface Running {
  server: Server;
  port: number;
  /** The port that was asked for (0 in tests picks a free one). */
  requested: number;
  material: TlsMaterial;
}

/**
 * The optional HTTPS listener, on the same app as the HTTP port. Its port comes from
 * PBX_HTTPS_PORT (config.httpsPort) or else from the `https` singleton when enabled. Saved settings
 * and certificate renewals apply live: a new certificate is swapped into the running listener
 * (new handshakes get it, open connections finish), and a new port is bound before the old one
 * closes, so a failure leaves the previous listener serving and the error shown.
 */
export async function startHttpsListener(
  services: Services,
  callback: RequestListener,
  onPortChange: (port: number | null) => void,
): Promise<HttpsListener> {
  const fromConfig = services.config.httpsPort !== undefined;
  let running: Running | undefined;
  let queue = Promise.resolve();

  const record = (intent: HttpsIntent, error?: string) => {
    const state = running
      ? {
          enabled: true as const,
          port: running.port,
          source: running.material.source,
          certificateFile: running.material.certificateFile,
          ...summarizeCertificate(running.material.cert),
        }
      : OFF;
    const runtime: HttpsRuntime = { ...state, applied: intent, ...(error ? { error } : {}) };
    writeSetting(services.db, HTTPS_RUNTIME_KEY, runtime);
  };

  const reconcile = async (startup: boolean): Promise<void> => {
    const intent = readHttpsIntent(services);
    const requested = services.config.httpsPort ?? (intent.enabled ? intent.port : undefined);
    const before = running?.port ?? null;
    try {
      if (requested === undefined) {
        if (running) await retire(running.server);
        running = undefined;
      } else {
        const material = await loadMaterial(services, intent);
        if (running && (requested === running.requested || requested === running.port)) {
          // Same port: only the certificate may have changed. New handshakes use it at once.
          if (material.cert !== running.material.cert || material.key !== running.material.key)
            running.server.setSecureContext(secureOptions(material));
          running = { ...running, requested, material };
        } else {
          const next = await listen(services, callback, requested, material);
          if (running) await retire(running.server);
          running = next;
        }
      }
      record(intent);
    } catch (error) {
      // PBX_HTTPS_PORT is the operator's explicit choice: at start, fail like the HTTP port would.
      // Settings saved through the API never keep the server from starting: HTTP stays up, the
      // listener keeps what it had, and the reason is shown in the console.
      if (startup && fromConfig) throw error;
      const reason = describeFailure(error, requested);
      services.logger.error({ err: error, port: requested }, 'https settings not applied');
      const kept = running ? ` HTTPS keeps running on port ${running.port} with its previous settings.` : '';
      record(
        intent,
        `${startup ? 'HTTPS was not started' : 'The new HTTPS settings were not applied'}: ${reason}.${kept}`,
      );
    }
    const after = running?.port ?? null;
    if (after !== before || startup) onPortChange(after);
    if (after !== before && running)
      services.logger.info(
        {
          port: after,
          source: running.material.source,
          fingerprint256: summarizeCertificate(running.material.cert).fingerprint256,
        },
        'https listening',
      );
    if (after !== before && !running) services.logger.info('https stopped');
  };

  let closed = false;
  const enqueue = (startup: boolean) => {
    const run = queue.then(() => (closed ? undefined : reconcile(startup)));
    // A start-up failure goes to the caller (which stops the server); a later one is logged here.
    queue = run.catch((error: unknown) => {
      if (!startup) services.logger.error({ err: error }, 'https settings not applied');
    });
    return startup ? run : queue;
  };

  await enqueue(true);
  return {
    get port() {
      return running?.port ?? null;
    },
    apply: () => enqueue(false),
    close: () => {
      closed = true;
      return (queue = queue.then(async () => {
        if (running) await retire(running.server, 0);
        running = undefined;
      }));
    },
  };
}

/**
 * The pair to serve, read from disk each time (a renewal replaced the files, see
 * resources/https/actions.ts). The self-signed pair is generated here only when it is missing at
 * start (PBX_HTTPS_PORT on a new data directory): saves through the API generate it in a worker.
 */
async function loadMaterial(services: Services, intent: HttpsIntent): Promise<TlsMaterial> {
  const material =
    intent.certificatePath && intent.privateKeyPath
      ? configuredCertificate(intent.certificatePath, intent.privateKeyPath)
      : await selfSignedCertificate(resolve(services.config.dataDir));
  createSecureContext(secureOptions(material)); // throws here, before anything changes, when the pair does not match
  return material;
}

function secureOptions(material: TlsMaterial) {
  return { cert: material.cert, key: material.key, minVersion: 'TLSv1.2' as const };
}

async function listen(
  services: Services,
  callback: RequestListener,
  port: number,
  material: TlsMaterial,
): Promise<Running> {
  const server: Server = createHttpsServer(secureOptions(material), callback);
  server.on('tlsClientError', () => undefined); // scanners and bad handshakes are not server errors
  server.on('connect', answerConnect); // 405 envelope, as on the HTTP port
  server.on('clientError', answerClientError); // malformed requests: 400/431 envelopes, as on the HTTP port
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, services.config.host, () => {
      server.off('error', fail);
      done();
    });
  });
  server.on('error', (error) => services.logger.error({ err: error }, 'https listener error'));
  return { server, port: (server.address() as AddressInfo).port, requested: port, material };
}

/** Stops accepting at once; idle keep-alive sockets close now, requests in flight get `drainMs`. */
function retire(server: Server, drainMs = DRAIN_MS): Promise<void> {
  const closed = new Promise<void>((done) => server.close(() => done()));
  server.closeIdleConnections();
  if (drainMs === 0) server.closeAllConnections();
  else setTimeout(() => server.closeAllConnections(), drainMs).unref();
  return drainMs === 0 ? closed : Promise.resolve();
}

/** The operator's words for the usual failures; anything else as Node says it. */
function describeFailure(error: unknown, port: number | undefined): string {
  const { code, syscall, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (syscall === 'listen' && code === 'EADDRINUSE')
    return `port ${port} is already in use by another program (EADDRINUSE)`;
  if (syscall === 'listen' && code === 'EACCES')
    return `port ${port} needs administrator rights (EACCES); choose a port above 1023`;
  if (syscall === 'open' && path) return `${path} cannot be read (${code})`;
  if (/key values mismatch/i.test(String((error as Error | undefined)?.message)))
    return 'the private key does not match the certificate';
  return error instanceof Error ? error.message : String(error);
}
