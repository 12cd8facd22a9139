import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { dataDirOf } from '../../storage/database.ts';
import { readSetting, writeSetting } from '../../storage/settings.ts';
import { selfSignedCertificate } from '../../tls/tls-certificate.ts';
import { failure, ok } from '../../resource-kit/results.ts';
import { singletonActions } from '../../resource-kit/singleton.ts';
import { defineActions, type ActionHandler } from '../../resource-kit/types.ts';
import { HTTPS_REKEY_KEY, HTTPS_SETTING_KEY, httpsDeclaration } from './declaration.ts';
import { readHttpsIntent } from './intent.ts';
import { httpsRenewalsSetting, httpsRuntimeSetting } from './settings.ts';

/** Both paths or neither; each must be absolute and exist when given. */
function validate(complete: Record<string, unknown>): string[] {
  const cert = String(complete.certificatePath ?? '');
  const key = String(complete.privateKeyPath ?? '');
  if ((cert === '') !== (key === ''))
    return ['certificatePath and privateKeyPath must be given together (or both left empty).'];
  const problems: string[] = [];
  for (const [name, path] of [
    ['certificatePath', cert],
    ['privateKeyPath', key],
  ] as const) {
    if (path === '') continue;
    if (!isAbsolute(path)) problems.push(`${name} must be an absolute path.`);
    else if (!existsSync(path)) problems.push(`${name}: ${path} does not exist.`);
  }
  return problems;
}

/**
 * https:renewCertificate. A self-signed pair is generated here, in the worker (the key generation
 * and the certificate library's first load would stall the web thread); then the renewal is
 * counted, and the web thread, told of the change, reads the files and re-keys the listener.
 */
const renewCertificate: ActionHandler = async (ctx) => {
  if (readSetting(ctx.db, httpsRuntimeSetting).enabled !== true) {
    return failure(409, 'HTTPS is not running: enable it first, then renew its certificate.');
  }
  if (!readHttpsIntent(ctx).certificatePath) await selfSignedCertificate(dataDirOf(ctx.db), { renew: true });
  return ctx.db.transaction(() => {
    const renewals = readSetting(ctx.db, httpsRenewalsSetting).renewals + 1;
    writeSetting(ctx.db, HTTPS_REKEY_KEY, { renewals });
    ctx.emit({ type: 'resource-changed', resource: httpsDeclaration.name });
    return ok({ renewals });
  })();
};

/** A save that turns on HTTPS without files of its own makes sure the self-signed pair exists (in the worker, as above). */
const withSelfSigned =
  (save: ActionHandler): ActionHandler =>
  async (ctx) => {
    const result = await save(ctx);
    const intent = readHttpsIntent(ctx);
    if (result.result && intent.enabled && !intent.certificatePath) await selfSignedCertificate(dataDirOf(ctx.db));
    return result;
  };

const singleton = singletonActions(httpsDeclaration, { settingKey: HTTPS_SETTING_KEY, validate });

export const httpsActions = defineActions(httpsDeclaration, {
  ...singleton,
  update: withSelfSigned(singleton.update),
  patch: withSelfSigned(singleton.patch),
  custom: { renewCertificate },
});
