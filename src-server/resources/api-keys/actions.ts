import {
  generateApiKey,
  hashApiKey,
  keyDisplay,
  keyExpired,
  keySources,
  parseAllowedPaths,
  storedApiKey,
  type StoredApiKey,
} from '../../auth/api-key-store.ts';
import { normalisePath, type AllowedPaths } from '../../auth/allowed-paths.ts';
import { grantsExceeding, type CallerGrants } from '../../auth/key-grants.ts';
import { DEFAULT_FEED_INTERVAL_MINUTES, requestResync } from '../../firewall/export/index.ts';
import { loadFilter } from '../../firewall/filters/index.ts';
import type { ActionResult } from '../../wire/envelope.ts';
import { recordActions } from '../../resource-kit/crud.ts';
import { declaredDefaults } from '../../resource-kit/fields.ts';
import { failure, invalid, ok, recordNotFound } from '../../resource-kit/results.ts';
import { prepareSave, type SaveMode } from '../../resource-kit/save.ts';
import { defineActions, type ActionContext } from '../../resource-kit/types.ts';
import {
  apiKeyCount,
  apiKeyRow,
  apiKeyRows,
  deleteApiKey,
  insertApiKey,
  keyGrantsOf,
  keyHashTaken,
  rotateApiKey,
  updateApiKey,
  type ApiKeyRow,
} from '../../storage/api-key-rows.ts';
import { apiKeysDeclaration } from './declaration.ts';
import { resolveCap } from './key-cap-fields.ts';

/** The fields `getDefault` answers with their declared defaults (bouncer_setup is chosen by the dialog, not defaulted). */
const NEW_KEY_DEFAULTS = [
  'allowed_paths',
  'full_permissions',
  'networkfilterid',
  'expand_ranges',
  'entry_cap',
  'cap_preset',
  'aggregate',
  'feed_interval_minutes',
  'enabled',
  'expires_at',
] as const;

type KeyStatus = 'active' | 'disabled' | 'expired';

function statusOf(key: StoredApiKey, nowMs: number): KeyStatus {
  if (key.disabledAt !== null) return 'disabled';
  return keyExpired(key, nowMs) ? 'expired' : 'active';
}

/** The read shape: never the key, never its hash. The grants read as authentication reads them. */
function present(row: ApiKeyRow, ctx: ActionContext): Record<string, unknown> {
  const key = storedApiKey(row);
  return {
    id: key.id,
    description: key.description,
    key_display: row.key_display,
    has_key: true,
    allowed_paths: key.allowedPaths,
    full_permissions: key.fullPermissions,
    networkfilterid: key.networkFilterId,
    expand_ranges: key.expandRanges,
    entry_cap: key.entryCap,
    cap_preset: row.cap_preset,
    aggregate: key.aggregate,
    feed_interval_minutes: row.feed_interval_minutes ?? DEFAULT_FEED_INTERVAL_MINUTES,
    bouncer_setup: row.bouncer_setup,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    last_used_ip: row.last_used_ip,
    enabled: key.disabledAt === null,
    status: statusOf(key, ctx.now()),
    disabled_at: key.disabledAt,
    expires_at: key.expiresAt,
    rotated_at: row.rotated_at,
    sources: keySources(ctx.db, row.id),
  };
}

function load(ctx: ActionContext, id: string | undefined): ApiKeyRow | undefined {
  if (!id || !/^\d{1,15}$/.test(id)) return undefined;
  return apiKeyRow(ctx.db, Number(id));
}

/** Stored prefixes are normalised, so `/pbxcore/api/v3/x/` and `/api/v3/x` are the same grant. */
function normaliseAllowedPaths(paths: AllowedPaths): AllowedPaths {
  const out: AllowedPaths = {};
  for (const [path, permission] of Object.entries(paths)) out[normalisePath(path)] = permission;
  return out;
}

/** A new expiry must be in the future; an unchanged one (a PUT repeating the record) is not re-checked. */
function checkExpiry(ctx: ActionContext, values: Record<string, unknown>, existing: ApiKeyRow | undefined): string[] {
  const expiry = values.expires_at;
  if (typeof expiry !== 'string') return [];
  const at = Date.parse(expiry);
  if (existing?.expires_at !== null && existing?.expires_at !== undefined && Date.parse(existing.expires_at) === at)
    return [];
  return at > ctx.now()
    ? []
    : [
        `expires_at: must be in the future (it is ${new Date(at).toISOString()}; now is ` +
          `${new Date(ctx.now()).toISOString()}), or null for a key that never expires.`,
      ];
}

function checkFilter(ctx: ActionContext, complete: Record<string, unknown>): string[] {
  const id = String(complete.networkfilterid ?? 'none');
  if (id === 'none' || id === 'localhost') return [];
  return loadFilter(ctx.db, Number(id)) ? [] : [`networkfilterid: there is no network filter with id ${id}.`];
}

function keyTaken(ctx: ActionContext, hash: string, exceptId?: number): boolean {
  return keyHashTaken(ctx.db, hash, exceptId);
}

/**
 * What the caller may hand on: everything for JWT admins, the localhost bypass and full keys; its
 * own allowed_paths for any other key (read from its record: the worker sees only its id). Callers
 * below ADMIN never get here (authorize), so they hold nothing.
 */
function callerGrants(ctx: ActionContext): CallerGrants {
  const session = ctx.session;
  if (session?.auth_type === 'api_key') {
    const row = keyGrantsOf(ctx.db, Number(session.token_id));
    if (!row) return { fullPermissions: false, allowedPaths: {}, networkFilterId: 'none' };
    return {
      fullPermissions: row.full_permissions === 1,
      allowedPaths: parseAllowedPaths(row.allowed_paths),
      networkFilterId: row.networkfilterid,
    };
  }
  return { fullPermissions: ctx.canReadSensitive, allowedPaths: {}, networkFilterId: 'none' };
}

/** Writes a key record within the caller's grants; the key is hashed, and a generated one is shown once. */
function write(
  ctx: ActionContext,
  mode: SaveMode,
  existing: ApiKeyRow | undefined,
): { id: number; shownOnce?: Record<string, unknown> } | ActionResult {
  const outcome = prepareSave({
    declaration: apiKeysDeclaration,
    mode,
    verb: ctx.verb,
    body: ctx.input,
    existing: existing && present(existing, ctx),
    validate: (complete) => checkFilter(ctx, complete),
  });
  if (!outcome.ok) return invalid(outcome.errors);
  const expiryProblems = checkExpiry(ctx, outcome.values, existing);
  if (expiryProblems.length) return invalid(expiryProblems);
  const cap = resolveCap(outcome.values, (ctx.input ?? {}) as object, existing);
  if (!cap.ok) return invalid([cap.error]);
  // A caller creates or edits keys only within its own grants (the whole resulting record, so
  // an edit of a stronger key, even of its description or key value, is refused too).
  const { complete } = outcome;
  const excess = grantsExceeding(callerGrants(ctx), {
    fullPermissions: complete.full_permissions === true,
    allowedPaths: (complete.allowed_paths ?? {}) as AllowedPaths,
    networkFilterId: String(complete.networkfilterid ?? 'none'),
  });
  if (excess.length) return failure(403, ...excess);
  const values = outcome.values;
  const columns: Record<string, unknown> = {};
  if ('description' in values) columns.description = values.description;
  if ('allowed_paths' in values)
    columns.allowed_paths = JSON.stringify(normaliseAllowedPaths(values.allowed_paths as AllowedPaths));
  if ('full_permissions' in values) columns.full_permissions = values.full_permissions ? 1 : 0;
  if ('networkfilterid' in values) columns.networkfilterid = String(values.networkfilterid);
  if ('expand_ranges' in values) columns.expand_ranges = values.expand_ranges ? 1 : 0;
  if (cap.columns) Object.assign(columns, cap.columns);
  if ('aggregate' in values) columns.aggregate = values.aggregate ? 1 : 0;
  if ('feed_interval_minutes' in values) columns.feed_interval_minutes = values.feed_interval_minutes;
  if ('bouncer_setup' in values) columns.bouncer_setup = values.bouncer_setup ?? null;
  // Disabling keeps the time it was first disabled; enabling clears it.
  if ('enabled' in values)
    columns.disabled_at =
      values.enabled === false ? (existing?.disabled_at ?? new Date(ctx.now()).toISOString()) : null;
  if ('expires_at' in values)
    columns.expires_at =
      typeof values.expires_at === 'string' ? new Date(Date.parse(values.expires_at)).toISOString() : null;

  const generated = typeof values.key !== 'string' && mode === 'create';
  const key = generated ? generateApiKey() : (values.key as string | undefined);
  if (key !== undefined) {
    const hash = hashApiKey(key);
    if (keyTaken(ctx, hash, existing?.id))
      return failure(409, 'This key is already in use by another API key record; generate a new one.');
    columns.key_hash = hash;
    columns.key_display = keyDisplay(key);
  }

  if (mode === 'create') {
    columns.created_at = new Date(ctx.now()).toISOString();
    const id = insertApiKey(ctx.db, columns);
    // A generated key is shown once, here; a key the client chose is never echoed (it has it).
    return { id, shownOnce: generated ? { key } : undefined };
  }
  updateApiKey(ctx.db, existing!.id, columns);
  return { id: existing!.id };
}

/**
 * `api-keys/{id}:rotate`: a new value for the same record (id, grants, binding, cursor, state), shown
 * once. The old value stops working at once: validation is one lookup by hash, with no cache. The
 * caller needs the grants editing this key would need (a weaker key cannot rotate a stronger one).
 */
function rotate(ctx: ActionContext): ActionResult {
  return ctx.db.transaction((): ActionResult => {
    const row = load(ctx, ctx.id);
    if (!row) return recordNotFound(apiKeysDeclaration.name, ctx.id ?? '');
    const excess = grantsExceeding(callerGrants(ctx), storedApiKey(row));
    if (excess.length) return failure(403, ...excess);
    const key = generateApiKey();
    rotateApiKey(ctx.db, row.id, hashApiKey(key), keyDisplay(key), new Date(ctx.now()).toISOString());
    ctx.emit({ type: 'resource-changed', resource: apiKeysDeclaration.name });
    return ok({ ...present(load(ctx, String(row.id))!, ctx), key });
  })();
}

/**
 * `api-keys/{id}:resync`: recorded here, applied by the web thread (it holds the feeds' cursors)
 * when it hears of the change. Needs the grants editing this key would need, as rotate does.
 */
function resync(ctx: ActionContext): ActionResult {
  const row = load(ctx, ctx.id);
  if (!row) return recordNotFound(apiKeysDeclaration.name, ctx.id ?? '');
  const excess = grantsExceeding(callerGrants(ctx), storedApiKey(row));
  if (excess.length) return failure(403, ...excess);
  const at = ctx.now();
  requestResync(ctx.db, row.id, at);
  ctx.emit({ type: 'resource-changed', resource: apiKeysDeclaration.name });
  const requested = new Date(at).toISOString();
  return ok({ id: row.id, resync_requested_at: requested }, { auditChanges: [{ field: 'resync', after: requested }] });
}

export const apiKeysActions = defineActions(apiKeysDeclaration, {
  ...recordActions(apiKeysDeclaration, {
    load,
    list: (ctx, page) => {
      return { total: apiKeyCount(ctx.db), records: apiKeyRows(ctx.db, page) };
    },
    present,
    write,
    remove: (ctx, row) => {
      deleteApiKey(ctx.db, row.id);
      return row.id;
    },
  }),
  custom: {
    generateKey: () => ok({ key: generateApiKey() }),
    getDefault: () =>
      ok({
        description: '',
        ...declaredDefaults(apiKeysDeclaration.fields, NEW_KEY_DEFAULTS),
        has_key: false,
      }),
    rotate,
    resync,
  },
});
