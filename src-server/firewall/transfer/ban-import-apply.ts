import type { Db } from '../../storage/database.ts';
import { latestEndsInForce, PERMANENT_UNTIL } from '../bans/index.ts';
import { MAX_REASON_CHARS, type ImportedBan, type LineError } from './ban-import.ts';
import { carvedNote, NeverBannedSet, refusalText } from '../filters/index.ts';

/** What an import does to one address or range. */
export type ImportAction = 'add' | 'extend' | 'keep';

export interface PlannedBan extends ImportedBan {
  action: ImportAction;
  /** Every line that named this value (duplicates are merged into one ban). */
  lines: number[];
}

export interface ImportPlan {
  bans: PlannedBan[];
  added: number;
  extended: number;
  unchanged: number;
  /** Entries merged into another of the same value. */
  merged: number;
}

export const until = (ban: Pick<ImportedBan, 'seconds'>, now: number) =>
  ban.seconds === null ? PERMANENT_UNTIL : now + ban.seconds * 1000;

/** Duplicates merged: one ban per value, the longest duration (its reason and services with it). */
function mergeDuplicates(bans: readonly ImportedBan[]): { unique: Map<string, PlannedBan>; merged: number } {
  const unique = new Map<string, PlannedBan>();
  for (const ban of bans) {
    const known = unique.get(ban.value);
    if (!known) {
      // Spelled out: a spread with added members made each of 100,000 objects 410 bytes, not 140.
      const { line, value, seconds, reason, services } = ban;
      unique.set(value, { line, value, seconds, reason, services, action: 'add', lines: [line] });
      continue;
    }
    if (known.lines[known.lines.length - 1] !== ban.line) known.lines.push(ban.line);
    if (until(ban, 0) > until(known, 0))
      Object.assign(known, { seconds: ban.seconds, reason: ban.reason, services: ban.services });
  }
  return { unique, merged: bans.length - unique.size };
}

/**
 * Two ends this close are the same: an export rounds seconds left up, and its re-import moments
 * later starts the same duration again, so it is not an extension (no new history row).
 */
export const SAME_END_MS = 5000;

/**
 * The never-banned rule over each imported value (firewall/filters/never-banned.ts): an address that is
 * loopback or unspecified, and the catch-all, are refused lines; a whitelisted or trusted one is
 * skipped with a warning (the list is fine, this server protects it); a range holding any of them
 * is imported as the CIDRs around them, with a warning and the reason saying so.
 */
function screenImport(
  bans: readonly ImportedBan[],
  rule: NeverBannedSet,
): { kept: ImportedBan[]; errors: LineError[]; warnings: LineError[] } {
  const kept: ImportedBan[] = [];
  const errors: LineError[] = [];
  const warnings: LineError[] = [];
  for (const ban of bans) {
    if (ban.value.endsWith('/0')) {
      errors.push({
        line: ban.line,
        reason: `${ban.value} is every address; ban specific addresses or networks: refused`,
      });
      continue;
    }
    const screen = rule.screen(ban.value);
    if (screen.kind === 'clear') kept.push(ban);
    else if (screen.kind === 'refused') {
      const fixed = screen.holder.kind === 'host loopback' || screen.holder.kind === 'unspecified';
      (fixed ? errors : warnings).push({
        line: ban.line,
        reason: `${refusalText(ban.value, screen.holder)}: ${fixed ? 'refused' : 'skipped'}`,
      });
    } else {
      const note = carvedNote(screen.holes);
      warnings.push({ line: ban.line, reason: `${ban.value} ${note}: imported as ${screen.pieces.length} range(s)` });
      const reason = (ban.reason ? `${ban.reason} (${note})` : note).slice(0, MAX_REASON_CHARS);
      for (const value of screen.pieces) kept.push({ ...ban, value, reason });
    }
  }
  return { kept, errors, warnings };
}

/**
 * What importing these bans would do, without writing: the never-banned rule applied (see
 * screenImport: refused lines, warnings); duplicates merged; each value compared with the bans
 * already in force for it (one ending within SAME_END_MS of a ban in force, or earlier, keeps it; a
 * longer one extends the manual ban, or adds one).
 */
export function planBanImport(
  db: Db,
  bans: readonly ImportedBan[],
  now: number,
): { plan: ImportPlan; errors: LineError[]; warnings: LineError[] } {
  const { kept, errors, warnings } = screenImport(bans, NeverBannedSet.read(db, now));
  const { unique, merged } = mergeDuplicates(kept);
  // The end of the manual ban in force per value, and of any ban of this PBX (manual or intrusion):
  // an export with `source=all` lists intrusion bans, and re-importing one must change nothing.
  const manualEnd = new Map<string, number>();
  const anyEnd = new Map<string, number>();
  for (const row of latestEndsInForce(db, now)) {
    if (row.manual) manualEnd.set(row.ip, row.expires_at);
    anyEnd.set(row.ip, Math.max(anyEnd.get(row.ip) ?? 0, row.expires_at));
  }
  const plan: ImportPlan = { bans: [], added: 0, extended: 0, unchanged: 0, merged };
  for (const ban of unique.values()) {
    // Kept when a ban already in force ends as late (within SAME_END_MS); a longer one extends the
    // manual ban, or adds one beside an intrusion ban (which ends on its own).
    const inForce = anyEnd.get(ban.value);
    ban.action =
      inForce !== undefined && inForce + SAME_END_MS >= until(ban, now)
        ? 'keep'
        : manualEnd.has(ban.value)
          ? 'extend'
          : 'add';
    if (ban.action === 'add') plan.added++;
    else if (ban.action === 'extend') plan.extended++;
    else plan.unchanged++;
    plan.bans.push(ban);
  }
  errors.sort((a, b) => a.line - b.line);
  return { plan, errors, warnings };
}
