import { ENTRY_CLASSES, type EntryClass } from '../../../src-shared/key-caps.ts';
import { MANUAL_DURATION_SECONDS, secondsLeft, type DecisionKey } from '../model/index.ts';
import type { Member } from '../snapshot/index.ts';

export { ENTRY_CLASSES, type EntryClass } from '../../../src-shared/key-caps.ts';

/** One published entry as a key's selection sees it. */
export interface KeyEntry {
  key: DecisionKey;
  identity: string;
  /** When it ends (epoch ms); null for a filter entry, which never does. */
  expiresAt: number | null;
  cls: EntryClass;
}

export type ClassCounts = Record<EntryClass, number>;

/** What a cap kept and what it left out. */
export interface CapSelection {
  kept: KeyEntry[];
  /** What was left out, by class. */
  leftOut: ClassCounts;
  /** The left-out entries of this PBX's own (intrusion and manual bans): what delivery and the Dashboard name. */
  leftOutOwn: KeyEntry[];
}

export const zeroCounts = (): ClassCounts => ({ intrusion: 0, manual: 0, filter: 0, upstream: 0 });
export const totalOf = (counts: ClassCounts) => ENTRY_CLASSES.reduce((sum, cls) => sum + counts[cls], 0);
export const isOwn = (cls: EntryClass) => cls === 'intrusion' || cls === 'manual';

const RANK: Record<EntryClass, number> = { intrusion: 0, manual: 1, filter: 2, upstream: 3 };

/** A member's class: a ban's kind (upstream, manual, intrusion), else a filter entry. */
export function classOf(member: Pick<Member, 'ban' | 'filterRefs'>): EntryClass {
  const ban = member.ban;
  if (!ban) return 'filter';
  if (ban.category === 'upstream') return 'upstream';
  return ban.category === 'manual' ? 'manual' : 'intrusion';
}

/** A member as a selection entry, with the end the stream publishes (a filter entry's, unless its ban lasts longer). */
export function entryOf(member: Member, now: number): KeyEntry {
  const ban = member.ban;
  const banLonger =
    ban !== undefined && (member.filterRefs === 0 || secondsLeft(ban.expiresAt, now) > MANUAL_DURATION_SECONDS);
  return {
    key: member.key,
    identity: member.identity,
    expiresAt: banLonger ? ban.expiresAt : null,
    cls: classOf(member),
  };
}

/** Priority order: class first, then the longest-lasting (a filter entry never ends), then identity (stable output). */
export function byPriority(a: KeyEntry, b: KeyEntry): number {
  if (a.cls !== b.cls) return RANK[a.cls] - RANK[b.cls];
  const ea = a.expiresAt ?? Infinity;
  const eb = b.expiresAt ?? Infinity;
  if (ea !== eb) return eb - ea;
  return a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0;
}

/**
 * The entries a key with `cap` receives: in priority order (intrusion bans, manual bans, filter
 * entries, upstream decisions; the longest-lasting first within a class) as long as they fit.
 * `weight` is what an entry costs on the device (a range expanded into addresses costs each); an
 * entry too heavy for what is left is left out and lighter ones after it may still fit. A null
 * cap keeps everything.
 */
export function selectCapped(
  entries: readonly KeyEntry[],
  cap: number | null,
  weight: (entry: KeyEntry) => number = () => 1,
): CapSelection {
  const leftOut = zeroCounts();
  if (cap === null) return { kept: [...entries], leftOut, leftOutOwn: [] };
  const kept: KeyEntry[] = [];
  const leftOutOwn: KeyEntry[] = [];
  let used = 0;
  for (const entry of [...entries].sort(byPriority)) {
    const cost = weight(entry);
    if (used + cost <= cap) {
      kept.push(entry);
      used += cost;
      continue;
    }
    leftOut[entry.cls]++;
    if (isOwn(entry.cls)) leftOutOwn.push(entry);
  }
  return { kept, leftOut, leftOutOwn };
}

/**
 * selectCapped over the published members (one entry per address, no weights), without making an
 * entry of every member nor sorting them all: classes that fit whole are kept as they are, only
 * the class the cap falls in is sorted, and the classes after it are only counted (their own bans
 * listed). The same selection as `selectCapped(members.map(entryOf))` (a property test checks).
 */
export function selectCappedMembers(members: Iterable<Member>, cap: number, now: number): CapSelection {
  const byClass: Record<EntryClass, Member[]> = { intrusion: [], manual: [], filter: [], upstream: [] };
  for (const member of members) byClass[classOf(member)].push(member);
  const kept: KeyEntry[] = [];
  const leftOut = zeroCounts();
  const leftOutOwn: KeyEntry[] = [];
  for (const cls of ENTRY_CLASSES) {
    const room = cap - kept.length;
    const list = byClass[cls];
    if (list.length <= room) {
      for (const member of list) kept.push(entryOf(member, now));
      continue;
    }
    const sorted = room > 0 ? list.map((member) => entryOf(member, now)).sort(byPriority) : undefined;
    for (let i = 0; i < Math.max(0, room); i++) kept.push(sorted![i]!);
    leftOut[cls] = list.length - Math.max(0, room);
    if (isOwn(cls)) {
      const rest = sorted ? sorted.slice(Math.max(0, room)) : list.map((member) => entryOf(member, now));
      leftOutOwn.push(...rest);
    }
  }
  return { kept, leftOut, leftOutOwn };
}

/** `capped at 15,000: 12,340 left out, all upstream` / `…: 3 left out (2 intrusion bans, 1 upstream)`. */
export function capStatusText(cap: number, leftOut: ClassCounts): string {
  const total = totalOf(leftOut);
  const head = `capped at ${cap.toLocaleString('en-US')}`;
  if (total === 0) return `${head}: nothing left out`;
  const parts = ENTRY_CLASSES.filter((cls) => leftOut[cls] > 0);
  if (parts.length === 1) return `${head}: ${total.toLocaleString('en-US')} left out, all ${CLASS_WORDS[parts[0]!]}`;
  const list = parts.map((cls) => `${leftOut[cls].toLocaleString('en-US')} ${CLASS_WORDS[cls]}`).join(', ');
  return `${head}: ${total.toLocaleString('en-US')} left out (${list})`;
}

const CLASS_WORDS: Record<EntryClass, string> = {
  intrusion: 'intrusion bans',
  manual: 'manual bans',
  filter: 'filter entries',
  upstream: 'upstream',
};
