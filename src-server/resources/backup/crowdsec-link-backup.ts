import { revealSecret, type Db } from '../../storage/database.ts';
import { CROWDSEC_LINK_SECRETS, CROWDSEC_LINK_SETTING_KEY } from '../../storage/migrations/070-crowdsec-link.ts';
import { LINK_CREDENTIALS, validateLinkSettings } from '../crowdsec-link/actions.ts';
import { checkCredentialSection } from './credential-section.ts';
import { MAX_CREDENTIAL_LENGTH } from '../../upstream/link-settings-schema.ts';
import { crowdsecLinkDeclaration } from '../crowdsec-link/declaration.ts';
import { prepareSave } from '../../resource-kit/save.ts';
import { readSingleton } from '../../resource-kit/singleton.ts';

/** The link's write-only members: in an export only with `secrets`, like the AMI secret. */
const SECRETS = Object.keys(CROWDSEC_LINK_SECRETS) as Array<keyof typeof CROWDSEC_LINK_SECRETS>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The declared public fields of a record (neither read-only nor write-only). */
function publicOf(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(crowdsecLinkDeclaration.fields))
    if (!def.readOnly && !def.writeOnly && values[name] !== undefined) out[name] = values[name];
  return out;
}

/** The stored record: public fields as GET crowdsec-link shows them, secrets in clear. */
function stored(db: Db) {
  const values = readSingleton(crowdsecLinkDeclaration, { db }, CROWDSEC_LINK_SETTING_KEY);
  const publicValues = publicOf(values);
  const secrets = Object.fromEntries(
    SECRETS.map((name) => [name, revealSecret(db, String(values[name] ?? ''), CROWDSEC_LINK_SECRETS[name])]),
  ) as Record<(typeof SECRETS)[number], string>;
  return { values, publicValues, secrets };
}

/** The `crowdsecLink` section of an export: public fields, and the password and key only when `secrets` (and set). */
export function exportLinkSection(db: Db, secrets: boolean): Record<string, unknown> {
  const current = stored(db);
  const out = { ...current.publicValues };
  if (secrets) for (const name of SECRETS) if (current.secrets[name] !== '') out[name] = current.secrets[name];
  return out;
}

export type LinkImportPlan =
  | { ok: true; value: Record<string, unknown>; changed: string[] }
  | { ok: false; status: 403 | 422; errors: string[]; wrongGuess?: boolean };

/**
 * Validates the section with the resource's own rules (strict types, the link's requirements) and
 * says which fields it changes. The stored password and key are kept unless the file carries them;
 * setting them or sending them to another LAPI or login follows the one rule of PUT
 * (resource-kit/credential-destination.ts). An empty secret is refused, as by PUT.
 */
export function planLinkImport(db: Db, raw: Record<string, unknown>, canWriteSecrets: boolean): LinkImportPlan {
  const at = (e: string) => `crowdsecLink.${e}`;
  const empty = SECRETS.filter((name) => name in raw && (raw[name] === '' || raw[name] === null));
  if (empty.length)
    return {
      ok: false,
      status: 422,
      errors: empty.map((name) => at(`${name}: must be 1-${MAX_CREDENTIAL_LENGTH} characters, not empty.`)),
    };
  const current = stored(db);
  const saved = prepareSave({
    declaration: crowdsecLinkDeclaration,
    mode: 'update',
    verb: 'PUT',
    body: raw,
    existing: current.values,
    validate: validateLinkSettings,
    strictTypes: true,
  });
  if (!saved.ok) return { ok: false, status: 422, errors: saved.errors.map(at) };
  const checked = checkCredentialSection(db, {
    section: 'crowdsecLink',
    credentials: LINK_CREDENTIALS,
    stored: current.values,
    complete: saved.complete,
    raw,
    canWriteSecrets,
  });
  if (!checked.ok) return checked;
  const secretsChanged = checked.secretsChanged;
  const after = publicOf(saved.complete);
  const changed = [...new Set([...Object.keys(current.publicValues), ...Object.keys(after)])].filter(
    (name) => !same(current.publicValues[name], after[name]),
  );
  return { ok: true, value: saved.complete, changed: [...changed, ...secretsChanged] };
}
