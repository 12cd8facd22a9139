import { extensionRows, type ExtensionRow } from '../../peers/extension-rows.ts';
import { prepareSave } from '../../resource-kit/save.ts';
import { revealSecret, type Db } from '../../storage/database.ts';
import { SECRET_CONTEXTS } from '../../storage/migrations/004-sealed-secrets.ts';
import { extensionsDeclaration } from '../extensions/declaration.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The `extensions` section of an export: number, name, caller ID and state of every extension; its SIP password
 * only with `secrets` (like the AMI secret), in clear, so that the file restores on a server with another key.
 */
export function exportExtensionsSection(db: Db, secrets: boolean): Array<Record<string, unknown>> {
  return extensionRows(db).map((row) => ({
    number: row.number,
    username: row.username,
    callerid: row.callerid,
    disabled: row.disabled === 1,
    ...(secrets && row.secret ? { secret: revealSecret(db, row.secret, SECRET_CONTEXTS.extension) } : {}),
  }));
}

export type ExtensionsImportPlan =
  | { ok: true; rows: ExtensionRow[]; added: string[]; changed: string[]; removed: string[] }
  | { ok: false; status: 403 | 422; errors: string[] };

/**
 * Checks the section with the rules of POST /extensions (strict types) and plans the replacement. As for the
 * other stored credentials: a password absent from the file is kept as stored (a backup made without secrets
 * restores without losing them), one in the file is re-entered, and changing a stored one needs SENSITIVE.
 * A new extension without a password is refused: a SIP account cannot be made without one.
 */
export function planExtensionsImport(db: Db, raw: unknown, canWriteSecrets: boolean): ExtensionsImportPlan {
  if (!Array.isArray(raw)) return { ok: false, status: 422, errors: ['extensions: must be an array when present.'] };
  const stored = new Map(extensionRows(db).map((row) => [row.number, row]));
  const errors: string[] = [];
  const rows: ExtensionRow[] = [];
  const seen = new Set<string>();
  const changed: string[] = [];
  const secretsChanged: string[] = [];
  raw.forEach((entry, index) => {
    const at = `extensions[${index}]`;
    if (!isObject(entry)) return void errors.push(`${at}: must be an object.`);
    const old = typeof entry.number === 'string' ? stored.get(entry.number) : undefined;
    const revealed = old?.secret ? revealSecret(db, old.secret, SECRET_CONTEXTS.extension) : '';
    const body = 'secret' in entry || !revealed ? entry : { ...entry, secret: revealed };
    const outcome = prepareSave({
      declaration: extensionsDeclaration,
      mode: 'create',
      verb: 'POST',
      body,
      strictTypes: true,
    });
    if (!outcome.ok) {
      const why = 'secret' in entry || old ? '' : ' (the backup was made without secrets: export it again with them)';
      return void errors.push(...outcome.errors.map((e) => `${at}.${e}${e.startsWith('secret') ? why : ''}`));
    }
    const c = outcome.complete;
    const number = String(c.number);
    if (seen.has(number)) return void errors.push(`${at}.number: ${number} appears twice.`);
    seen.add(number);
    const secretChanged = 'secret' in entry && !!old && entry.secret !== revealed;
    if (secretChanged) secretsChanged.push(number);
    rows.push({
      number,
      username: String(c.username),
      callerid: String(c.callerid ?? ''),
      // Kept sealed as stored unless the file re-enters it; the trigger seals a clear one on write.
      secret: 'secret' in entry || !old ? String(c.secret) : old.secret,
      disabled: c.disabled === true ? 1 : 0,
    });
    if (
      old &&
      (secretChanged ||
        old.username !== c.username ||
        old.callerid !== (c.callerid ?? '') ||
        old.disabled !== (c.disabled === true ? 1 : 0))
    )
      changed.push(number);
  });
  if (errors.length) return { ok: false, status: 422, errors };
  if (secretsChanged.length && !canWriteSecrets)
    return {
      ok: false,
      status: 403,
      errors: [
        `extensions: importing a changed SIP password (extension ${secretsChanged.join(', ')}) needs the SENSITIVE level.`,
      ],
    };
  return {
    ok: true,
    rows,
    added: rows.filter((r) => !stored.has(r.number)).map((r) => r.number),
    changed,
    removed: [...stored.keys()].filter((number) => !seen.has(number)),
  };
}
