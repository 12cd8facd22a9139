import {
  type BanListFormat,
  type LineError,
  parseBanList,
  planBanImport,
  renderBanExport,
  writeBanImport,
} from '../../firewall/transfer/index.ts';
import { listActiveBans } from '../../firewall/bans/index.ts';
import { describeCutOff, RegisteredAddresses } from '../../firewall/filters/index.ts';
import { failure, invalid, ok } from '../../resource-kit/results.ts';
import type { Db } from '../../storage/database.ts';
import type { FirewallAction } from './declaration.ts';
import { actorOf } from '../../resource-kit/actor.ts';

/** Largest import body (the HTTP layer answers 413 above it). */
export const BAN_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** An answer lists at most this many refused lines or changes; the counts are always complete. */
const LISTED = 1000;

/** `json: entry 3: …` for JSON lists (entries, not lines), `line 3: …` otherwise. */
const describeLine = (format: BanListFormat, error: LineError) =>
  `${format === 'json' ? 'entry' : 'line'} ${error.line}: ${error.reason}.`;

/** A 422 naming every refused line (the first LISTED in messages), and nothing imported. */
function refused(format: BanListFormat, errors: LineError[]) {
  const messages = errors.slice(0, LISTED).map((error) => describeLine(format, error));
  if (errors.length > LISTED) messages.push(`…and ${errors.length - LISTED} more refused lines.`);
  messages.unshift(`Nothing was imported: ${errors.length} ${format === 'json' ? 'entries' : 'lines'} refused.`);
  return invalid(messages);
}

/** `The list would cut off registered phones at …`, naming them (at most LISTED addresses); undefined when none. */
function phonesCutOff(db: Db, bans: ReadonlyArray<{ value: string; action: string }>, now: number): string | undefined {
  const registered = RegisteredAddresses.read(db, now);
  const found = new Map<string, string[]>();
  for (const ban of bans) {
    if (ban.action === 'keep') continue;
    for (const [address, phones] of registered.protectedPhones(ban.value)) found.set(address, phones);
  }
  if (found.size === 0) return undefined;
  const listed = new Map([...found].slice(0, LISTED));
  const more = found.size > LISTED ? ` …and ${found.size - LISTED} more addresses` : '';
  return `the list would cut off registered phones at ${describeCutOff(listed)}${more}.`;
}

/**
 * `firewall:importBans`: a ban list in a cscli or OPNsense format, all or nothing. Every line is
 * checked first; any refused line (malformed, loopback, unspecified or every address) gets a 422
 * listing them, and nothing is written. Whitelisted or trusted values are skipped and ranges holding
 * never-banned addresses carved around them, each named in `messages.warning`. Otherwise each value becomes one manual ban (duplicates
 * merged, the longest duration kept), written in slices but all or nothing (writeBanImport), or,
 * with `dryRun`, the same plan is answered without writing.
 */
export const importBans: FirewallAction<'importBans'> = async (ctx) => {
  const { format, content, duration, reason, dryRun } = ctx.input;
  const parsed = parseBanList(content, format, { seconds: duration, reason });
  const now = ctx.now();
  const { plan, errors: protectedErrors, warnings } = planBanImport(ctx.db, parsed.bans, now);
  const lineErrors = [...parsed.errors, ...protectedErrors].sort((a, b) => a.line - b.line);
  if (lineErrors.length) return refused(format, lineErrors);
  // Registered phones are never cut off without the operator saying so (registered-addresses.ts).
  const cutOff = phonesCutOff(ctx.db, plan.bans, now);
  if (cutOff && !dryRun && !ctx.input.confirmCutOff)
    return failure(409, `Nothing was imported: ${cutOff} Send confirmCutOff: true to import anyway.`);

  if (!dryRun) {
    const written = await writeBanImport(ctx.db, plan, now, `${actorOf(ctx)} (import)`);
    if (written) ctx.emit({ type: 'bans-imported', ...written });
  }
  const changes = plan.bans.filter((ban) => ban.action !== 'keep');
  const warningMessages = warnings.slice(0, LISTED).map((warning) => describeLine(format, warning));
  if (cutOff) warningMessages.unshift(`Importing it ${cutOff.replace(/^the list /, '')}`);
  if (warnings.length > LISTED) warningMessages.push(`…and ${warnings.length - LISTED} more.`);
  const answer = {
    dryRun,
    format,
    entries: parsed.bans.length,
    bans: plan.bans.length,
    added: plan.added,
    extended: plan.extended,
    unchanged: plan.unchanged,
    merged: plan.merged,
    changes: changes.slice(0, LISTED).map((ban) => ({
      value: ban.value,
      action: ban.action,
      duration: ban.seconds === null ? 'permanent' : `${ban.seconds}s`,
      reason: ban.reason,
      lines: ban.lines,
    })),
  };
  // The audit entry reads "Imported a ban list: 10 added, 2 extended" (the body has only the list's size).
  const imported = { entries: answer.entries, added: plan.added, extended: plan.extended, unchanged: plan.unchanged };
  return ok(answer, {
    ...(warningMessages.length ? { messages: { warning: warningMessages } } : {}),
    auditChanges: [{ field: 'imported', after: imported }],
  });
};

/**
 * `firewall:exportBans?format=json|csv|values|opnsense&source=manual|all`: the bans in force as a
 * list `firewall:importBans` reads back (json and csv keep durations, reasons and services).
 * `source=manual` (the default) exports the operator's bans, `all` adds the intrusion bans.
 */
export const exportBans: FirewallAction<'exportBans'> = (ctx) => {
  const { format, source } = ctx.input;
  const bans = listActiveBans(ctx.db, ctx.now()).filter((ban) => source === 'all' || ban.category === 'manual');
  return ok({ format, source, count: bans.length, content: renderBanExport(bans, format) });
};
