import { filterBoundKeys, grantRows } from '../../storage/api-key-rows.ts';
import { isCatchAll } from '../../firewall/model/index.ts';
import {
  denyRanges,
  FAIL2BAN_SETTING_KEY,
  fail2banFromStored,
  type Fail2banSettings,
  filterLabel,
  type FilterRow,
  loadFilters,
  replaceFilters,
  rowToFilter,
  whitelistRanges,
} from '../../firewall/filters/index.ts';
import { parseCidr } from '../../net/cidr.ts';
import { RangeIndex } from '../../net/range-index.ts';
import { revealAmiSecret } from '../../peers/ami-settings.ts';
import { GENERAL_SETTINGS_KEY } from '../../queue/limits.ts';
import type { Db } from '../../storage/database.ts';
import { writeSetting } from '../../storage/settings.ts';
import { AMI_SETTINGS_KEY } from '../../peers/ami-settings-schema.ts';
import { amiDeclaration } from '../ami/declaration.ts';
import { AMI_CREDENTIALS, validateAmiSettings } from '../ami/actions.ts';
import { checkCredentialSection } from './credential-section.ts';
import { apiKeysDeclaration } from '../api-keys/declaration.ts';
import { DEFAULT_FEED_INTERVAL_MINUTES } from '../../firewall/export/index.ts';
import { validateWhitelist } from '../fail2ban/actions.ts';
import { fail2banDeclaration } from '../fail2ban/declaration.ts';
import { filterWriteShape, validateFilterBody } from '../firewall/filter-save.ts';
import { generalSettingsDeclaration } from '../general-settings/declaration.ts';
import { prepareSave } from '../../resource-kit/save.ts';
import { readSingleton } from '../../resource-kit/singleton.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { CROWDSEC_LINK_SETTING_KEY } from '../../storage/migrations/070-crowdsec-link.ts';
import { exportLinkSection, planLinkImport } from './crowdsec-link-backup.ts';
import { exportExtensionsSection, planExtensionsImport } from './extensions-backup.ts';
import { replaceExtensions, type ExtensionRow } from '../../peers/extension-rows.ts';

/** What `format` says in every export; `version` is this file layout's version. */
export const BACKUP_FORMAT = 'pbx-console-config';
export const BACKUP_VERSION = 1;

/** Why key metadata is exported but never restored. */
export const KEYS_NOT_RESTORED =
  'API keys are not restored: a key is a secret the backup never holds (only its metadata). Issue new keys after the import.';

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
  /** The CrowdSec LAPI link (absent from backups made before it): its password and key only with secrets. */
  crowdsecLink?: Record<string, unknown>;
  /** The extensions (absent from backups made before them): a SIP password only with secrets. */
  extensions?: Array<Record<string, unknown>>;
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
    crowdsecLink: SectionChanges;
    extensions: SectionChanges;
    apiKeys: SectionChanges & { notRestored: number; note: string };
  };
  /** What was accepted but deserves a look (key metadata referring to a filter the file lacks). */
  warnings: string[];
}

export type ImportOutcome =
  | { ok: true; report: ImportReport }
  /** `wrongGuess`: the file re-entered a stored secret wrongly (counted as a failed credential). */
  | { ok: false; status: 403 | 422; errors: string[]; wrongGuess?: boolean };

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

/** A singleton's section of the file, checked as PUT would check it (types strict), with what was stored before. */
function planSingleton(
  db: Db,
  declaration: ResourceDeclaration,
  key: string,
  body: unknown,
  validate?: (complete: Record<string, unknown>) => string[],
) {
  const stored = readSingleton(declaration, { db }, key);
  const before = singletonValues(declaration, db, key);
  const outcome = prepareSave({
    declaration,
    mode: 'update',
    verb: 'PUT',
    body,
    existing: stored,
    validate,
    strictTypes: true,
  });
  return { stored, before, outcome };
}

function keyMetadata(db: Db): Array<Record<string, unknown>> {
  return grantRows(db).map((row) => ({
    id: row.id,
    description: row.description,
    allowed_paths: JSON.parse(row.allowed_paths || '{}') as unknown,
    full_permissions: row.full_permissions === 1,
    networkfilterid: row.networkfilterid,
    expand_ranges: row.expand_ranges === 1,
    feed_interval_minutes: row.feed_interval_minutes ?? DEFAULT_FEED_INTERVAL_MINUTES,
    enabled: row.disabled_at === null,
    expires_at: row.expires_at,
  }));
}

/**
 * The configuration as one JSON document: network filters, fail2ban rules (whitelist included),
 * general settings, AMI settings (its secret only when `secrets`), the CrowdSec link (its password
 * and bouncer key only when `secrets`), the extensions (their SIP passwords only when `secrets`) and API key metadata (never a key value or hash).
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
    // Filters in their write shape with the id kept: API keys refer to filters by id.
    networkFilters: loadFilters(db).map((filter) => ({ id: filter.id, ...filterWriteShape(filter) })),
    fail2ban: singletonValues(fail2banDeclaration, db, FAIL2BAN_SETTING_KEY),
    generalSettings: singletonValues(generalSettingsDeclaration, db, GENERAL_SETTINGS_KEY),
    ami,
    crowdsecLink: exportLinkSection(db, options.secrets),
    extensions: exportExtensionsSection(db, options.secrets),
    apiKeys: keyMetadata(db),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const none = (): SectionChanges => ({ added: [], changed: [], removed: [] });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Field names whose value differs between two records of a singleton. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (name) => !same(before[name], after[name]),
  );
}

/** The shape of the document: every section present with the right type (sections are then checked by the resources' rules). */
function shapeErrors(config: unknown): string[] {
  if (!isObject(config)) return ['config: must be the JSON object an export produced.'];
  const errors: string[] = [];
  if (config.format !== BACKUP_FORMAT) errors.push(`format: must be "${BACKUP_FORMAT}".`);
  if (config.version !== BACKUP_VERSION)
    errors.push(
      `version: ${JSON.stringify(config.version)} is not supported; this server reads version ${BACKUP_VERSION}.`,
    );
  if (!Array.isArray(config.networkFilters)) errors.push('networkFilters: must be an array.');
  for (const name of ['fail2ban', 'generalSettings', 'ami'] as const)
    if (!isObject(config[name])) errors.push(`${name}: must be an object.`);
  if (config.crowdsecLink !== undefined && !isObject(config.crowdsecLink))
    errors.push('crowdsecLink: must be an object when present.');
  if (config.extensions !== undefined && !Array.isArray(config.extensions))
    errors.push('extensions: must be an array when present.');
  if (config.apiKeys !== undefined && !Array.isArray(config.apiKeys))
    errors.push('apiKeys: must be an array when present.');
  return errors;
}

/** Ids are SQLite rowids read by JavaScript: beyond 2^31 - 1 a later create could be handed an id no client can hold. */
export const MAX_IMPORT_ID = 2 ** 31 - 1;

export interface ImportOptions {
  dryRun: boolean;
  /** The caller holds SENSITIVE (the CLI does): needed to import an AMI secret, or to move the stored one to another host. */
  canWriteSecrets: boolean;
  /** Called once per changed resource after a real import committed (the web thread reloads its caches). */
  changed?: (resource: string) => void;
}

/** The public values of a singleton record as an import would store it (what singletonValues reads back). */
function publicValues(declaration: ResourceDeclaration, complete: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(declaration.fields)) {
    if (def.readOnly || def.writeOnly || !(name in complete) || complete[name] === undefined) continue;
    out[name] = complete[name];
  }
  return out;
}

/** An id as a backup must hold it: a JSON integer from 1 to MAX_IMPORT_ID, never a string. */
function idError(at: string, id: unknown, why: string): string | undefined {
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1)
    return `${at}.id: must be a positive integer (${why}).`;
  if (id > MAX_IMPORT_ID) return `${at}.id: ${id} is above ${MAX_IMPORT_ID}, the largest id this server stores.`;
  return undefined;
}

/** What a validated document writes, and the report it answers with. */
interface ImportPlan {
  filters: FilterRow[];
  settings: Array<[key: string, value: Record<string, unknown>]>;
  /** The extensions to store, when the file has them. */
  extensions?: ExtensionRow[];
  importedIds: Set<string>;
  report: ImportReport;
}

type PlanOutcome =
  | { ok: true; plan: ImportPlan }
  | { ok: false; status: 403 | 422; errors: string[]; wrongGuess?: boolean };

/**
 * Validates the whole document with the resources' own rules, then replaces the configuration in
 * one short transaction: filters (ids kept), fail2ban, general settings, AMI, the CrowdSec link. Validation runs
 * first, outside any write transaction and in O(n log n) (overlaps through a range index), so the
 * write lock is held only for the writes themselves: the web thread, which writes cursors and bans,
 * is never kept waiting. A dry run writes nothing. API keys are never created (see
 * KEYS_NOT_RESTORED); their metadata is validated, and a reference to a filter the file lacks is a
 * warning (the export wrote it as the running server had it).
 */
export function importConfig(db: Db, config: unknown, options: ImportOptions): ImportOutcome {
  const shape = shapeErrors(config);
  if (shape.length) return { ok: false, status: 422, errors: shape };
  const doc = config as ConfigBackup;
  // One consistent read of the current configuration; a deferred transaction takes no write lock.
  const planned = db.transaction(() => planImport(db, doc, options)).deferred();
  if (!planned.ok) return planned;
  const { plan } = planned;
  if (options.dryRun) return { ok: true, report: plan.report };

  const refused = db.transaction(() => {
    // A key bound to a removed filter may have been created since validation: checked again under the lock.
    const lost = boundKeysLost(db, plan.importedIds);
    if (lost.length) return lost;
    replaceFilters(db, plan.filters, MAX_IMPORT_ID);
    for (const [key, value] of plan.settings) writeSetting(db, key, value);
    if (plan.extensions) replaceExtensions(db, plan.extensions);
    return [];
  })();
  if (refused.length) return { ok: false, status: 422, errors: refused };
  for (const [section, resource] of [
    ['networkFilters', 'firewall'],
    ['fail2ban', 'fail2ban'],
    ['generalSettings', 'general-settings'],
    ['ami', 'ami'],
    ['crowdsecLink', 'crowdsec-link'],
    ['extensions', 'extensions'],
  ] as const) {
    const c = plan.report.sections[section];
    if (c.added.length || c.changed.length || c.removed.length) options.changed?.(resource);
  }
  return { ok: true, report: plan.report };
}

/** Keys on this server bound to a filter the import does not keep: each would lose its binding. */
function boundKeysLost(db: Db, importedIds: Set<string>): string[] {
  const lost = filterBoundKeys(db).filter((key) => !importedIds.has(key.networkfilterid));
  if (!lost.length) return [];
  const filters = new Map(loadFilters(db).map((f) => [String(f.id), f]));
  return lost.map((key) => {
    const filter = filters.get(key.networkfilterid);
    return (
      `apiKeys: the key "${key.description}" on this server is bound to network filter ` +
      `${filter ? filterLabel(filter) : key.networkfilterid}, which this import removes; bind the ` +
      `key elsewhere or delete it first.`
    );
  });
}

function planImport(db: Db, doc: ConfigBackup, options: ImportOptions): PlanOutcome {
  const errors: string[] = [];
  const warnings: string[] = [];
  const sections: ImportReport['sections'] = {
    networkFilters: none(),
    fail2ban: none(),
    generalSettings: none(),
    ami: none(),
    crowdsecLink: none(),
    extensions: none(),
    apiKeys: { ...none(), notRestored: 0, note: KEYS_NOT_RESTORED },
  };
  const settings: ImportPlan['settings'] = [];

  // fail2ban: declared bounds and the whitelist's syntax; its overlaps with deny entries are checked below.
  // The whitelist's syntax, its entries' ends and the repeat-offender bounds (resources/fail2ban).
  const { before: f2bBefore, outcome: f2b } = planSingleton(
    db,
    fail2banDeclaration,
    FAIL2BAN_SETTING_KEY,
    doc.fail2ban,
    (c) => validateWhitelist(db, c),
  );
  if (!f2b.ok) errors.push(...f2b.errors.map((e) => `fail2ban.${e}`));
  else {
    settings.push([FAIL2BAN_SETTING_KEY, f2b.complete]);
    sections.fail2ban.changed = changedFields(f2bBefore, publicValues(fail2banDeclaration, f2b.complete));
  }

  // Network filters, each with the rules of POST /firewall; then every overlap rule at once.
  const filters: ImportPlan['filters'] = [];
  const labels: string[] = [];
  const seen = new Set<number>();
  doc.networkFilters.forEach((raw, index) => {
    const at = `networkFilters[${index}]`;
    if (!isObject(raw)) return void errors.push(`${at}: must be an object.`);
    const badId = idError(at, raw.id, 'API keys refer to filters by id');
    if (badId) return void errors.push(badId);
    const id = raw.id as number;
    if (seen.has(id)) return void errors.push(`${at}.id: ${id} appears twice.`);
    seen.add(id);
    const { id: _id, ...body } = raw;
    const outcome = validateFilterBody(body, 'POST', 'create', undefined, true);
    const name = typeof raw.description === 'string' && raw.description ? ` ("${raw.description.slice(0, 60)}")` : '';
    if (!outcome.ok) return void errors.push(...outcome.errors.map((e) => `${at}${name}.${e}`));
    filters.push({ ...outcome.filter.row, id });
    labels.push(`${at}${name}`);
  });
  errors.push(
    ...importOverlapErrors(
      filters,
      labels,
      f2b.ok ? fail2banFromStored(f2b.complete) : { whitelist: '', whitelistEntries: [] },
    ),
  );

  // General settings.
  const { before: generalBefore, outcome: general } = planSingleton(
    db,
    generalSettingsDeclaration,
    GENERAL_SETTINGS_KEY,
    doc.generalSettings,
  );
  if (!general.ok) errors.push(...general.errors.map((e) => `generalSettings.${e}`));
  else {
    settings.push([GENERAL_SETTINGS_KEY, general.complete]);
    sections.generalSettings.changed = changedFields(
      generalBefore,
      publicValues(generalSettingsDeclaration, general.complete),
    );
  }

  // AMI: the stored secret is kept unless the file carries one; the rule of PUT /ami decides the rest.
  const {
    stored: amiStored,
    before: amiBefore,
    outcome: ami,
  } = planSingleton(db, amiDeclaration, AMI_SETTINGS_KEY, doc.ami, validateAmiSettings);
  if (!ami.ok) errors.push(...ami.errors.map((e) => `ami.${e}`));
  else {
    const checked = checkCredentialSection(db, {
      section: 'ami',
      credentials: AMI_CREDENTIALS,
      stored: amiStored,
      complete: ami.complete,
      raw: doc.ami,
      canWriteSecrets: options.canWriteSecrets,
    });
    if (!checked.ok) return checked;
    settings.push([AMI_SETTINGS_KEY, ami.complete]);
    sections.ami.changed = [
      ...changedFields(amiBefore, publicValues(amiDeclaration, ami.complete)),
      ...checked.secretsChanged,
    ];
  }

  // The CrowdSec link, when the file has it (older backups do not: the link is left as it is).
  if (doc.crowdsecLink !== undefined) {
    const link = planLinkImport(db, doc.crowdsecLink, options.canWriteSecrets);
    if (!link.ok && link.status === 403) return link;
    if (!link.ok) errors.push(...link.errors);
    else {
      settings.push([CROWDSEC_LINK_SETTING_KEY, link.value]);
      sections.crowdsecLink.changed = link.changed;
    }
  }

  // The extensions, when the file has them (older backups do not: they are left as they are).
  let extensions: ExtensionRow[] | undefined;
  if (doc.extensions !== undefined) {
    const planned = planExtensionsImport(db, doc.extensions, options.canWriteSecrets);
    if (!planned.ok && planned.status === 403) return planned;
    if (!planned.ok) errors.push(...planned.errors);
    else {
      extensions = planned.rows;
      sections.extensions = { added: planned.added, changed: planned.changed, removed: planned.removed };
    }
  }

  // API key metadata: validated, never restored; a reference to a filter the file lacks is only a warning.
  const keys = doc.apiKeys ?? [];
  const importedIds = new Set(filters.map((f) => String(f.id)));
  keys.forEach((raw, index) => {
    const at = `apiKeys[${index}]`;
    if (!isObject(raw)) return void errors.push(`${at}: must be an object.`);
    if ('key' in raw || 'key_hash' in raw)
      return void errors.push(`${at}: a backup never holds key values or hashes; remove "key".`);
    if (raw.id !== undefined) {
      const badId = idError(at, raw.id, 'as the export writes it');
      if (badId) return void errors.push(badId);
    }
    const outcome = prepareSave({
      declaration: apiKeysDeclaration,
      mode: 'create',
      verb: 'POST',
      body: raw,
      strictTypes: true,
    });
    if (!outcome.ok) return void errors.push(...outcome.errors.map((e) => `${at}.${e}`));
    const ref = String(outcome.complete.networkfilterid ?? 'none');
    if (ref !== 'none' && ref !== 'localhost' && !importedIds.has(ref)) {
      warnings.push(
        `${at}.networkfilterid: the key "${String(outcome.complete.description).slice(0, 60)}" was ` +
          `bound to network filter ${ref}, which this file does not hold (it was deleted before the ` +
          `export); keys are not restored, so nothing refers to it.`,
      );
    }
  });
  sections.apiKeys.notRestored = keys.length;
  // Keys already on this server stay; one bound to a filter the import removes would lose its binding.
  errors.push(...boundKeysLost(db, importedIds));
  if (errors.length) return { ok: false, status: 422, errors };

  // What changed among the filters.
  const filtersBefore = loadFilters(db);
  const beforeById = new Map(filtersBefore.map((f) => [f.id, f]));
  const afterIds = new Set<number>();
  for (const row of filters) {
    const after = rowToFilter(row);
    afterIds.add(after.id);
    const old = beforeById.get(after.id);
    if (!old) sections.networkFilters.added.push(filterLabel(after));
    else if (!same(old, after)) sections.networkFilters.changed.push(filterLabel(after));
  }
  for (const f of filtersBefore) if (!afterIds.has(f.id)) sections.networkFilters.removed.push(filterLabel(f));

  return {
    ok: true,
    plan: {
      filters,
      settings,
      extensions,
      importedIds,
      report: { dryRun: options.dryRun, applied: !options.dryRun, sections, warnings },
    },
  };
}

/**
 * The overlap rules of POST /firewall over the whole file at once (SPEC whitelist rule 2): no deny
 * entry may overlap the whitelist or any trusted network, its own filter's included.
 */
function importOverlapErrors(
  filters: ImportPlan['filters'],
  labels: string[],
  whitelist: Pick<Fail2banSettings, 'whitelist' | 'whitelistEntries'>,
): string[] {
  const protectedRanges = new RangeIndex<{ text: string; label: string; filter?: number }>();
  for (const { text, cidr } of whitelistRanges(whitelist, Date.now()))
    protectedRanges.add(cidr, { text, label: 'the fail2ban whitelist entry' });
  filters.forEach((filter, index) => {
    if (filter.newer_block_ip === 1)
      protectedRanges.add(parseCidr(filter.permit)!, {
        text: filter.permit,
        label: 'the trusted network',
        filter: index,
      });
  });
  if (!protectedRanges.size) return [];
  const errors: string[] = [];
  filters.forEach((filter, index) => {
    for (const { text, cidr } of denyRanges(filter)) {
      if (isCatchAll(cidr)) continue;
      const hit = protectedRanges.overlapping(cidr);
      if (!hit) continue;
      const whose =
        hit.filter === index
          ? "this filter's own trusted network"
          : hit.filter !== undefined
            ? `${hit.label} ${hit.text} of ${labels[hit.filter]}`
            : `${hit.label} ${hit.text}`;
      errors.push(
        `${labels[index]}.deny: "${text}" overlaps ${whose}; remove it from the whitelist or trusted networks first.`,
      );
    }
  });
  return errors;
}
