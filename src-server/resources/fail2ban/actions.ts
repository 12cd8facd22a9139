import { BAN_CATEGORIES, cidrsOverlap, isCatchAll, parseStrictCidr, splitList } from '../../firewall/model/index.ts';
import { BAN_PRESETS, type BanPresetName, presetOf, ruleFor, slowRuleFor } from '../../firewall/intrusion/index.ts';
import { coverAuditChanges, coverEvents, coverMessages, liftBansCoveredBy } from '../../firewall/bans/index.ts';
import {
  denyRanges,
  entryInForce,
  FAIL2BAN_SETTING_KEY,
  fail2banFromStored,
  filterLabel,
  loadFilters,
  whitelistRanges,
} from '../../firewall/filters/index.ts';
import type { Db } from '../../storage/database.ts';
import { writeSetting } from '../../storage/settings.ts';
import { actorOf } from '../../resource-kit/actor.ts';
import { toPublicRecord } from '../../resource-kit/records.ts';
import { invalid, ok } from '../../resource-kit/results.ts';
import { prepareSave } from '../../resource-kit/save.ts';
import { readSingleton } from '../../resource-kit/singleton.ts';
import type { ActionContext, ActionHandler, ResourceActions } from '../../resource-kit/types.ts';
import { fail2banDeclaration } from './declaration.ts';

/** What validation of a fail2ban record does with whitelist entries that already ended. */
export interface Fail2banCheckOptions {
  now: number;
  /** A restored backup drops entries that ended since it was taken; an API write gets 422. */
  dropEnded?: boolean;
  /** Off for a restored backup, which checks overlaps against the filters of its own file. */
  checkOverlaps?: boolean;
}

/**
 * Cross-field checks of a complete fail2ban record: every whitelist value is an address or CIDR
 * that overlaps no filter's deny entry, an entry's end is ahead, `bantimeMaxtime` is not below
 * any bantime while increment is on, and each slow window is longer than its category's findtime.
 */
export function validateFail2ban(db: Db, complete: Record<string, unknown>, options: Fail2banCheckOptions): string[] {
  const errors: string[] = [];
  const denies =
    options.checkOverlaps === false
      ? []
      : loadFilters(db).flatMap((filter) =>
          denyRanges(filter)
            .filter((r) => !isCatchAll(r.cidr))
            .map((r) => ({ ...r, filter: filterLabel(filter) })),
        );
  const check = (field: string, entry: string) => {
    const cidr = parseStrictCidr(entry);
    if (!cidr) return void errors.push(`${field}: "${entry.slice(0, 100)}" is not a valid IPv4/IPv6 address or CIDR.`);
    const hit = denies.find((d) => cidrsOverlap(d.cidr, cidr));
    if (hit) errors.push(`${field}: "${entry}" overlaps the deny entry ${hit.text} of network filter ${hit.filter}.`);
  };
  for (const entry of splitList(String(complete.whitelist ?? ''))) check('whitelist', entry);
  if (Array.isArray(complete.whitelistEntries)) {
    const entries = complete.whitelistEntries as Array<{ value: string; comment: string; until: string | null }>;
    if (options.dropEnded) complete.whitelistEntries = entries.filter((e) => entryInForce(e, options.now));
    (complete.whitelistEntries as typeof entries).forEach((entry, i) => {
      if (splitList(entry.value).length !== 1)
        return void errors.push(`whitelistEntries[${i}].value: one address or CIDR per entry.`);
      check(`whitelistEntries[${i}].value`, entry.value);
      if (!entryInForce(entry, options.now))
        errors.push(
          `whitelistEntries[${i}].until: ${entry.until} is in the past; give a later time, or null for good.`,
        );
    });
  }
  const settings = fail2banFromStored(complete);
  for (const category of settings.slowWindow ? BAN_CATEGORIES : []) {
    const { findtime } = ruleFor(settings, category);
    const slow = slowRuleFor(settings, category)!.findtime;
    if (slow > findtime) continue;
    const field =
      settings.categories[category]?.slowFindtime !== undefined
        ? `categories.${category}.slowFindtime`
        : 'slowFindtime';
    errors.push(`${field}: the slow window (${slow} s) must be longer than the ${category} findtime (${findtime} s).`);
    break;
  }
  if (settings.bantimeIncrement) {
    const longest = Math.max(
      settings.bantime,
      ...BAN_CATEGORIES.flatMap((c) => [ruleFor(settings, c).bantime, slowRuleFor(settings, c)?.bantime ?? 0]),
    );
    if (settings.bantimeMaxtime < longest) {
      errors.push(
        `bantimeMaxtime: ${settings.bantimeMaxtime} s is below the longest bantime (${longest} s); ` +
          `an incremented ban is never shorter than its bantime.`,
      );
    }
  }
  return errors;
}

/**
 * The check a restored backup runs (config-backup.ts): entries that ended since it was taken are
 * dropped, a `preset` in the file is not stored (it is derived from the numbers the file holds), and
 * overlaps are left to the import, which checks them against the file's own filters.
 */
export function validateWhitelist(db: Db, complete: Record<string, unknown>, now = Date.now()): string[] {
  delete complete.preset;
  return validateFail2ban(db, complete, { now, dropEnded: true, checkOverlaps: false });
}

/** The record as read: ended whitelist entries left out, the preset computed. */
function present(stored: Record<string, unknown>, ctx: ActionContext): Record<string, unknown> {
  const settings = fail2banFromStored(stored);
  const record = toPublicRecord(
    fail2banDeclaration,
    { ...stored, whitelistEntries: settings.whitelistEntries.filter((e) => entryInForce(e, ctx.now())) },
    ctx.canReadSensitive,
  );
  return { ...record, preset: presetOf(settings) };
}

/**
 * A preset in the body sets the global numbers and the slow window the body leaves out, turns the
 * slow window on (unless the body says otherwise) and clears the category overrides.
 */
function applyPreset(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { preset, ...rest } = body as Record<string, unknown>;
  if (typeof preset !== 'string' || !(preset in BAN_PRESETS)) return body;
  return { ...BAN_PRESETS[preset as BanPresetName], slowWindow: true, categories: {}, ...rest, preset };
}

const getRecord: ActionHandler = (ctx) =>
  ok(present(readSingleton(fail2banDeclaration, ctx, FAIL2BAN_SETTING_KEY), ctx));

/**
 * PUT/PATCH: validated like every singleton, then the bans that the whitelist now covers are
 * lifted in the same transaction (the answer says which), and the web thread is told.
 */
const save =
  (mode: 'update' | 'patch'): ActionHandler =>
  (ctx) =>
    ctx.db.transaction(() => {
      const now = ctx.now();
      const existing = readSingleton(fail2banDeclaration, ctx, FAIL2BAN_SETTING_KEY);
      // Entries that ended are gone: they are neither kept nor re-checked.
      existing.whitelistEntries = fail2banFromStored(existing).whitelistEntries.filter((e) => entryInForce(e, now));
      const outcome = prepareSave({
        declaration: fail2banDeclaration,
        mode,
        verb: ctx.verb,
        body: applyPreset(ctx.input),
        existing,
        validate: (complete) => validateFail2ban(ctx.db, complete, { now }),
      });
      if (!outcome.ok) return invalid(outcome.errors);
      const { preset: _preset, ...stored } = outcome.complete;
      writeSetting(ctx.db, FAIL2BAN_SETTING_KEY, stored);
      const cover = liftBansCoveredBy(ctx.db, whitelistRanges(fail2banFromStored(stored), now), now, actorOf(ctx));
      ctx.emit({ type: 'resource-changed', resource: fail2banDeclaration.name });
      for (const event of coverEvents(cover)) ctx.emit(event);
      const messages = coverMessages(cover);
      return ok(present(stored, ctx), { messages: { error: [], ...messages }, auditChanges: coverAuditChanges(cover) });
    })();

export const fail2banActions: ResourceActions = { getRecord, update: save('update'), patch: save('patch') };
