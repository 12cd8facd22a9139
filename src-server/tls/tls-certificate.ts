import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostAddresses } from '../net/host-addresses.ts';

export interface TlsMaterial {
  cert: string;
  key: string;
  source: 'self-signed' | 'configured';
  /** File the certificate was read from (what a bouncer's ca_cert_path points to). */
  certificateFile: string;
}

export interface CertificateSummary {
  fingerprint256: string;
  subject: string;
  validTo: string;
}

const SELF_SIGNED_YEARS = 10;

/**
 * The self-signed certificate of this data directory, generated on first use or when `renew` asks
 * for a new one (key mode 0600). Its names cover localhost, the loopback addresses and this host's
 * addresses at generation time.
 */
export async function selfSignedCertificate(dataDir: string, options: { renew?: boolean } = {}): Promise<TlsMaterial> {
  const dir = join(dataDir, 'tls');
  const certificateFile = join(dir, 'self-signed-cert.pem');
  const keyFile = join(dir, 'self-signed-key.pem');
  if (options.renew || !existsSync(certificateFile) || !existsSync(keyFile)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const notBeforeDate = new Date(Date.now() - 60_000);
    const notAfterDate = new Date(notBeforeDate.getTime() + SELF_SIGNED_YEARS * 365 * 86_400_000);
    const ips = [...new Set(['127.0.0.1', '::1', ...hostAddresses()])];
    // Loaded only when a certificate is first generated: it is the heaviest import of the server.
    const { generate } = await import('selfsigned');
    const pems = await generate(
      [
        { name: 'commonName', value: 'PBX Console' },
        { name: 'organizationName', value: 'PBX Console self-signed' },
      ],
      {
        keySize: 2048,
        algorithm: 'sha256',
        notBeforeDate,
        notAfterDate,
        extensions: [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
          { name: 'extKeyUsage', serverAuth: true },
          {
            name: 'subjectAltName',
            altNames: [{ type: 2, value: 'localhost' }, ...ips.map((ip) => ({ type: 7 as const, ip }))],
          },
        ],
      },
    );
    // Like every file of the data directory, 0600 whatever the umask; each replaced whole, so a
    // reader never sees half a file, and the key first so a new certificate never meets an old key.
    replaceFile(keyFile, pems.private);
    replaceFile(certificateFile, pems.cert);
  }
  return {
    cert: readFileSync(certificateFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    source: 'self-signed',
    certificateFile,
  };
}

function replaceFile(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}

/** A user-provided certificate and key (PEM files), which replace the self-signed pair. */
export function configuredCertificate(certificateFile: string, keyFile: string): TlsMaterial {
  return {
    cert: readFileSync(certificateFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    source: 'configured',
    certificateFile,
  };
}

/** SHA-256 fingerprint, subject and expiry of the first certificate in a PEM. */
export function summarizeCertificate(pem: string): CertificateSummary {
  const x509 = new X509Certificate(pem);
  return {
    fingerprint256: x509.fingerprint256,
    subject: x509.subject.replace(/\n/g, ', '),
    validTo: new Date(x509.validTo).toISOString(),
  };
}
