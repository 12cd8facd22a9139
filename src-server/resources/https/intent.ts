import { readSetting } from '../../storage/settings.ts';
import type { ActionContext } from '../../resource-kit/types.ts';
import { readSingleton } from '../../resource-kit/singleton.ts';
import { HTTPS_SETTING_KEY, httpsDeclaration } from './declaration.ts';
import { httpsRenewalsSetting } from './settings.ts';

/**
 * What the operator asked of the HTTPS listener: the `https` singleton plus how many times a new
 * certificate was requested. The web thread applies it live and records the intent it applied, so
 * a worker can tell the console whether a change is still pending.
 */
export interface HttpsIntent {
  enabled: boolean;
  port: number;
  certificatePath: string;
  privateKeyPath: string;
  /** Incremented by https:renewCertificate; a change makes the listener re-read or regenerate its certificate. */
  renewals: number;
}

export function readHttpsIntent(ctx: Pick<ActionContext, 'db'>): HttpsIntent {
  const settings = readSingleton(httpsDeclaration, ctx, HTTPS_SETTING_KEY);
  return {
    enabled: settings.enabled === true,
    port: Number(settings.port),
    certificatePath: String(settings.certificatePath ?? ''),
    privateKeyPath: String(settings.privateKeyPath ?? ''),
    renewals: readSetting(ctx.db, httpsRenewalsSetting).renewals,
  };
}

export function sameIntent(a: HttpsIntent | undefined, b: HttpsIntent | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.enabled === b.enabled &&
    a.port === b.port &&
    a.certificatePath === b.certificatePath &&
    a.privateKeyPath === b.privateKeyPath &&
    a.renewals === b.renewals
  );
}
