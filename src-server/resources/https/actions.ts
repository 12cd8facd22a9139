import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { singletonActions } from '../singleton.ts';
import type { ResourceActions } from '../types.ts';
import { HTTPS_SETTING_KEY, httpsDeclaration } from './declaration.ts';

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

export const httpsActions: ResourceActions = singletonActions(httpsDeclaration, { settingKey: HTTPS_SETTING_KEY, validate });
