import { FAIL2BAN_SETTING_KEY } from '../../firewall/fail2ban-settings.ts';
import { filterLabel, loadFilters, type NetworkFilter } from '../../firewall/filters.ts';
import { revealAmiSecret } from '../../peers/ami-settings.ts';
import { GENERAL_SETTINGS_KEY } from '../../queue/limits.ts';
import type { Db } from '../../storage/database.ts';
import { writeSetting } from '../../storage/settings.ts';
import { AMI_SETTINGS_KEY, amiDeclaration } from '../ami/declaration.ts';
import { apiKeysDeclaration } from '../api-keys/declaration.ts';
import { validateWhitelist } from '../fail2ban/actions.ts';
import { fail2banDeclaration } from '../fail2ban/declaration.ts';
import { prepareFilterSave } from '../firewall/filter-save.ts';
import { generalSettingsDeclaration } from '../general-settings/declaration.ts';
import { prepareSave } from '../save.ts';
import { readSingleton } from '../singleton.ts';
import type { ActionContext, ResourceDeclaration } from '../types.ts';

/** What `format` says in every export; `version` is this file layout's version. */
export const BACKUP_FORMAT = 'pbx-console-config';
export const BACKUP_VERSION = 1;

/** Why key metadata is exported but never restored. */
export const KEYS_NOT_RESTORED = 'API keys are not restored: a key is a secret the backup never holds (only its metadata). Issue new keys after the import.';

export interface ConfigBackup {
  format: typeof BACKUP_FORMAT;
  version: number;
  serverVersion: string;
  exportedAt: string;
  secretsIncluded: boolean;
  networkFilters: Array<Record<string, unknown>>;
  fail2ban: Record<string, unknown>;
  generalSettings: Record<string, unknown>;
  ami: Record<string, unknown>;
  apiKeys: Array<Record<string, unknown>>;
}

/** Per section: what an import adds, changes and removes (field names for settings, filter labels for filters). */
export interface SectionChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

export interface ImportReport {
  dryRun: boolean;
  applied: boolean;
  sections: {
    networkFilters: SectionChanges;
    fail2ban: SectionChanges;
    generalSettings: SectionChanges;
    ami: SectionChanges;
    apiKeys: SectionChanges & { notRestored: number; note: string };
  };
}

export type ImportOutcome = { ok: true; report: ImportReport } | { ok: false; status: 403 | 422; errors: string[] };

/** A filter in its write shape (what POST /firewall takes), id kept: API keys refer to filters by id. */
function filterWriteShape(filter: NetworkFilter): Record<string, unknown> {
  const currentRules: Record<string, boolean> = {};
  for (const [category, rule] of Object.entries(filter.rules)) currentRules[category] = rule === 'allow';
  return {
    id: filter.id,
    permit: filter.permit,
    deny: filter.deny,
    description: filter.description,
    newer_block_ip: filter.newer_block_ip,
    local_network: filter.local_network,
    currentRules,
  };
}

/** The public fields of a singleton (declared, not read-only, secrets left out). */
function singletonValues(declaration: ResourceDeclaration, db: Db, key: string): Record<string, unknown> {
  const values = readSingleton(declaration, { db }, key);
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(declaration.fields)) {
    if (def.readOnly || def.writeOnly || !(name in values)) continue;
    out[name] = values[name];
  }
  return out;
}

interface KeyRow {
  id: number;
  description: string;
  allowed_paths: string;
  full_permissions: number;
  networkfilterid: string;
  expand_ranges: number;
  disabled_at: string | null;
  expires_at: string | null;
}

function keyMetadata(db: Db): Array<Record<string, unknown>> {
  const rows = db
    .prepare('SELECT id, description, allowed_paths, full_permissions, networkfilterid, expand_ranges, disabled_at, expires_at FROM api_keys ORDER BY id')
    .all() as KeyRow[];
  return rows.map((row) => ({
    id: row.id,
    description: row.description,
    allowed_paths: JSON.parse(row.allowed_paths || '{}') as unknown,
    full_permissions: row.full_permissions === 1,
    networkfilterid: row.networkfilterid,
    expand_ranges: row.expand_ranges === 1,
    enabled: row.disabled_at === null,
    expires_at: row.expires_at,
  }));
}

/**
 * The configuration as one JSON document: network filters, fail2ban rules (whitelist included),
 * general settings, AMI settings (its secret only when `secrets`) and API key metadata (never a
 * key value or hash).
 */
export function exportConfig(db: Db, options: { secrets: boolean; serverVersion: string; now: number }): ConfigBackup {
  const ami = singletonValues(amiDeclaration, db, AMI_SETTINGS_KEY);
  if (options.secrets) ami.secret = revealAmiSecret(db, readSingleton(amiDeclaration, { db }, AMI_SETTINGS_KEY).secret);
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    serverVersion: options.serverVersion,
    exportedAt: new Date(options.now).toISOString(),
    secretsIncluded: options.secrets,
    networkFilters: loadFilters(db).map(filterWriteShape),
    fail2ban: singletonValues(fail2banDeclaration, db, FAIL2BAN_SETTING_KEY),
    generalSettings: singletonValues(generalSettingsDeclaration, db, GENERAL_SETTINGS_KEY),
    ami,
    apiKeys: keyMetadata(db),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const none = (): SectionChanges => ({ added: [], changed: [], removed: [] });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Thrown inside the transaction to roll it back (dry run, or a refusal found while applying). */
class Rollback extends Error {
  constructor(readonly outcome: ImportOutcome) {
    super('rollback');
  }
}

/** Field names whose value differs between two records of a singleton. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((name) => !same(before[name], after[name]));
}

/** The shape of the document: every section present with the right type (sections are then checked by the resources' rules). */
function shapeErrors(config: unknown): string[] {
  if (!isObject(config)) return ['config: must be the JSON object an export produced.'];
  const errors: string[] = [];
  if (config.format !== BACKUP_FORMAT) errors.push(`format: must be "${BACKUP_FORMAT}".`);
  if (config.version !== BACKUP_VERSION) errors.push(`version: ${JSON.stringify(config.version)} is not supported; this server reads version ${BACKUP_VERSION}.`);
  if (!Array.isArray(config.networkFilters)) errors.push('networkFilters: must be an array.');
  for (const name of ['fail2ban', 'generalSettings', 'ami'] as const) if (!isObject(config[name])) errors.push(`${name}: must be an object.`);
  if (config.apiKeys !== undefined && !Array.isArray(config.apiKeys)) errors.push('apiKeys: must be an array when present.');
  return errors;
}

export interface ImportOptions {
  dryRun: boolean;
  /** The caller holds SENSITIVE (the CLI does): needed to import an AMI secret, or to move the stored one to another host. */
  canWriteSecrets: boolean;
  /** Called once per changed resource after a real import committed (the web thread reloads its caches). */
  changed?: (resource: string) => void;
}

/**
 * Validates the whole document with the resources' own rules, then replaces the configuration in
 * one transaction: filters (ids kept), fail2ban, general settings, AMI. A dry run, or any error,
 * rolls everything back. API keys are never created (see KEYS_NOT_RESTORED); their metadata is
 * validated and its filter references resolved against the imported filters.
 */
export function importConfig(db: Db, config: unknown, options: ImportOptions): ImportOutcome {
  const shape = shapeErrors(config);
  if (shape.length) return { ok: false, status: 422, errors: shape };
  const doc = config as ConfigBackup;
  try {
    const report = db.transaction(() => applyImport(db, doc, options))();
    if (!options.dryRun) {
      for (const [section, resource] of [
        ['networkFilters', 'firewall'],
        ['fail2ban', 'fail2ban'],
        ['generalSettings', 'general-settings'],
        ['ami', 'ami'],
      ] as const) {
        const c = report.sections[section];
        if (c.added.length || c.changed.length || c.removed.length) options.changed?.(resource);
      }
    }
    return { ok: true, report };
  } catch (error) {
    if (error instanceof Rollback) return error.outcome;
    throw error;
  }
}

function applyImport(db: Db, doc: ConfigBackup, options: ImportOptions): ImportReport {
  const errors: string[] = [];
  const sections: ImportReport['sections'] = {
    networkFilters: none(),
    fail2ban: none(),
    generalSettings: none(),
    ami: none(),
    apiKeys: { ...none(), notRestored: 0, note: KEYS_NOT_RESTORED },
  };

  // Filters go first (emptied), so the whitelist and each filter are checked against the imported set only.
  const filtersBefore = loadFilters(db);
  db.prepare('DELETE FROM network_filters').run();

  // fail2ban: declared bounds, then the whitelist syntax (no filter exists yet; overlaps are checked per filter below).
  const f2bBefore = singletonValues(fail2banDeclaration, db, FAIL2BAN_SETTING_KEY);
  const f2b = prepareSave({
    declaration: fail2banDeclaration,
    mode: 'update',
    verb: 'PUT',
    body: doc.fail2ban,
    existing: readSingleton(fail2banDeclaration, { db }, FAIL2BAN_SETTING_KEY),
    validate: (complete) => validateWhitelist(db, complete),
  });
  if (!f2b.ok) errors.push(...f2b.errors.map((e) => `fail2ban.${e}`));
  else writeSetting(db, FAIL2BAN_SETTING_KEY, f2b.complete);

  // Network filters, with the same rules as POST /firewall (overlaps with the whitelist and earlier filters included).
  const seen = new Set<number>();
  doc.networkFilters.forEach((raw, index) => {
    const at = `networkFilters[${index}]`;
    if (!isObject(raw)) return void errors.push(`${at}: must be an object.`);
    const id = raw.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) return void errors.push(`${at}.id: must be a positive integer (API keys refer to filters by id).`);
    if (seen.has(id)) return void errors.push(`${at}.id: ${id} appears twice.`);
    seen.add(id);
    const { id: _id, ...body } = raw;
    const ctx = { db, verb: 'POST', body } as unknown as ActionContext;
    const outcome = prepareFilterSave(ctx, 'create');
    const name = typeof raw.description === 'string' && raw.description ? ` ("${raw.description.slice(0, 60)}")` : '';
    if (!outcome.ok) return void errors.push(...outcome.errors.map((e) => `${at}${name}.${e}`));
    db.prepare(
      'INSERT INTO network_filters (id, permit, deny, description, newer_block_ip, local_network, rules) VALUES (@id, @permit, @deny, @description, @newer_block_ip, @local_network, @rules)',
    ).run({ ...outcome.row, id });
  });
  const filtersAfter = loadFilters(db);

  // General settings.
  const generalBefore = singletonValues(generalSettingsDeclaration, db, GENERAL_SETTINGS_KEY);
  const general = prepareSave({
    declaration: generalSettingsDeclaration,
    mode: 'update',
    verb: 'PUT',
    body: doc.generalSettings,
    existing: readSingleton(generalSettingsDeclaration, { db }, GENERAL_SETTINGS_KEY),
  });
  if (!general.ok) errors.push(...general.errors.map((e) => `generalSettings.${e}`));
  else writeSetting(db, GENERAL_SETTINGS_KEY, general.complete);

  // AMI: the stored secret is kept unless the file carries one (which needs SENSITIVE, like PUT /ami).
  const amiStored = readSingleton(amiDeclaration, { db }, AMI_SETTINGS_KEY);
  const amiBefore = singletonValues(amiDeclaration, db, AMI_SETTINGS_KEY);
  const ami = prepareSave({
    declaration: amiDeclaration,
    mode: 'update',
    verb: 'PUT',
    body: doc.ami,
    existing: amiStored,
    validate: (complete) => (complete.enabled === true && !String(complete.username ?? '').trim() ? ['username is required when AMI is enabled.'] : []),
  });
  let secretChanged = false;
  if (!ami.ok) errors.push(...ami.errors.map((e) => `ami.${e}`));
  else {
    const storedSecret = revealAmiSecret(db, amiStored.secret);
    const sentSecret = 'secret' in doc.ami;
    secretChanged = sentSecret && String(ami.complete.secret ?? '') !== storedSecret;
    const moved = (['host', 'port', 'username'] as const).filter((name) => ami.complete[name] !== amiStored[name]);
    if (!options.canWriteSecrets && secretChanged) {
      throw new Rollback({ ok: false, status: 403, errors: ['ami.secret: importing the AMI secret needs the SENSITIVE level.'] });
    }
    if (!options.canWriteSecrets && !sentSecret && moved.length && storedSecret !== '') {
      throw new Rollback({
        ok: false,
        status: 403,
        errors: [`ami: changing ${moved.join(', ')} makes the server send the stored AMI secret to a new destination: it needs the SENSITIVE level, or a file with the secret.`],
      });
    }
    writeSetting(db, AMI_SETTINGS_KEY, ami.complete);
  }

  // API key metadata: validated, references resolved against the imported filters, never restored.
  const keys = doc.apiKeys ?? [];
  const importedIds = new Set(filtersAfter.map((f) => String(f.id)));
  keys.forEach((raw, index) => {
    const at = `apiKeys[${index}]`;
    if (!isObject(raw)) return void errors.push(`${at}: must be an object.`);
    if ('key' in raw || 'key_hash' in raw) return void errors.push(`${at}: a backup never holds key values or hashes; remove "key".`);
    const outcome = prepareSave({ declaration: apiKeysDeclaration, mode: 'create', verb: 'POST', body: raw });
    if (!outcome.ok) return void errors.push(...outcome.errors.map((e) => `${at}.${e}`));
    const ref = String(outcome.complete.networkfilterid ?? 'none');
    if (ref !== 'none' && ref !== 'localhost' && !importedIds.has(ref)) errors.push(`${at}.networkfilterid: there is no network filter with id ${ref} in this file.`);
  });
  sections.apiKeys.notRestored = keys.length;
  // Keys already on this server stay; one bound to a filter the import removes would lose its binding.
  const bound = db.prepare("SELECT id, description, networkfilterid FROM api_keys WHERE networkfilterid NOT IN ('none', 'localhost')").all() as KeyRow[];
  for (const key of bound) {
    if (importedIds.has(key.networkfilterid)) continue;
    const filter = filtersBefore.find((f) => String(f.id) === key.networkfilterid);
    errors.push(
      `apiKeys: the key "${key.description}" on this server is bound to network filter ${filter ? filterLabel(filter) : key.networkfilterid}, which this import removes; bind the key elsewhere or delete it first.`,
    );
  }

  if (errors.length) throw new Rollback({ ok: false, status: 422, errors });

  // What changed, per section.
  const beforeById = new Map(filtersBefore.map((f) => [f.id, f]));
  const afterById = new Map(filtersAfter.map((f) => [f.id, f]));
  for (const f of filtersAfter) {
    const old = beforeById.get(f.id);
    if (!old) sections.networkFilters.added.push(filterLabel(f));
    else if (!same(old, f)) sections.networkFilters.changed.push(filterLabel(f));
  }
  for (const f of filtersBefore) if (!afterById.has(f.id)) sections.networkFilters.removed.push(filterLabel(f));
  sections.fail2ban.changed = changedFields(f2bBefore, singletonValues(fail2banDeclaration, db, FAIL2BAN_SETTING_KEY));
  sections.generalSettings.changed = changedFields(generalBefore, singletonValues(generalSettingsDeclaration, db, GENERAL_SETTINGS_KEY));
  sections.ami.changed = [...changedFields(amiBefore, singletonValues(amiDeclaration, db, AMI_SETTINGS_KEY)), ...(secretChanged ? ['secret'] : [])];

  const report: ImportReport = { dryRun: options.dryRun, applied: !options.dryRun, sections };
  if (options.dryRun) throw new Rollback({ ok: true, report });
  return report;
}
