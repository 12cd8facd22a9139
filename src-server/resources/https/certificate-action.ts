import { readFileSync } from 'node:fs';
import { readSetting } from '../../storage/settings.ts';
import { ok } from '../../resource-kit/results.ts';
import type { ActionHandler } from '../../resource-kit/types.ts';
import { readHttpsIntent, sameIntent, type HttpsIntent } from './intent.ts';
import { httpsRuntimeSetting } from './settings.ts';

/** system:getCertificate: the HTTPS listener's certificate as the web thread last recorded it. */
export const getCertificate: ActionHandler = (ctx) => {
  const runtime = readSetting(ctx.db, httpsRuntimeSetting);
  const enabled = runtime?.enabled === true;
  return ok({
    /** True from a save (or renewal request) until the web thread has applied it. */
    pending: !sameIntent(readHttpsIntent(ctx), runtime?.applied as HttpsIntent | undefined),
    /** The certificate itself (public), so a bouncer can pin it with ca_cert_path; null when off or unreadable. */
    pem: enabled ? certificatePem(runtime.certificateFile) : null,
    enabled,
    port: enabled ? runtime.port : null,
    fingerprint256: enabled ? runtime.fingerprint256 : null,
    subject: enabled ? runtime.subject : null,
    validTo: enabled ? runtime.validTo : null,
    source: enabled ? runtime.source : null,
    /** Why the last change was not applied (port taken, unreadable certificate), else null. */
    error: typeof runtime?.error === 'string' ? runtime.error : null,
  });
};

/** The PEM text of the listener's certificate file (never the key). */
function certificatePem(file: unknown): string | null {
  if (typeof file !== 'string') return null;
  try {
    const text = readFileSync(file, 'utf8');
    const match = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(text);
    return match ? match[0] : null;
  } catch {
    return null;
  }
}
