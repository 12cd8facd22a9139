import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { readSetting, writeSetting } from '../../storage/settings.ts';
import { failure, ok } from '../results.ts';
import { singletonActions } from '../singleton.ts';
import type { ActionHandler, ResourceActions } from '../types.ts';
import { HTTPS_REKEY_KEY, HTTPS_RUNTIME_KEY, HTTPS_SETTING_KEY, httpsDeclaration } from './declaration.ts';

/** Both paths or neither; each must be absolute and exist when given. */
function validate(complete: Record<string, unknown>): string[] {
  const cert = String(complete.certificatePath ?? '');
  const key = String(complete.privateKeyPath ?? '');
  if ((cert === '') !== (key === '')) return ['certificatePath and privateKeyPath must be given together (or both left empty).'];
  const problems: string[] = [];
  for (const [name, path] of [['certificatePath', cert], ['privateKeyPath', key]] as const) {
    if (path === '') continue;
    if (!isAbsolute(path)) problems.push(`${name} must be an absolute path.`);
    else if (!existsSync(path)) problems.push(`${name}: ${path} does not exist.`);
  }
  return problems;
}

/** https:renewCertificate: counts a renewal request; the web thread sees the change and re-keys the listener. */
const renewCertificate: ActionHandler = (ctx) =>
  ctx.db.transaction(() => {
    if (readSetting<{ enabled?: boolean }>(ctx.db, HTTPS_RUNTIME_KEY)?.enabled !== true) {
      return failure(409, 'HTTPS is not running: enable it first, then renew its certificate.');
    }
    const renewals = (readSetting<{ renewals?: number }>(ctx.db, HTTPS_REKEY_KEY)?.renewals ?? 0) + 1;
    writeSetting(ctx.db, HTTPS_REKEY_KEY, { renewals });
    ctx.emit({ type: 'resource-changed', resource: httpsDeclaration.name });
    return ok({ renewals });
  })();

export const httpsActions: ResourceActions = {
  ...singletonActions(httpsDeclaration, { settingKey: HTTPS_SETTING_KEY, validate }),
  custom: { renewCertificate },
};
