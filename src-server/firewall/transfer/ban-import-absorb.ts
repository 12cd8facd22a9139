import type { ActiveBan, BanStore } from '../bans/index.ts';
import { CHUNKS } from '../snapshot/index.ts';
import { decisionId } from '../model/index.ts';

/** Rows read per event-loop turn. */
const READ_BATCH = 5000;
/**
 * Bans are taken in by groups of snapshot chunks: each change then re-renders and recompresses
 * only its own chunks, so a whole import costs the snapshot one pass, not one per slice.
 */
const GROUPS = 32;
/** Pause between two groups: room for bouncer polls and the snapshot rebuild each group causes. */
const PAUSE_MS = 50;

/** The group of a ban's snapshot chunk. */
const groupOf = (ban: ActiveBan) =>
  Math.floor(((decisionId(ban.ip, `pbx/${ban.category}`) % CHUNKS) * GROUPS) / CHUNKS);

/**
 * Takes a bulk import's bans (import `importId`, among rows `fromId`..`toId`) into the web thread's ban store without
 * stalling it: rows are read in batches, then handed over one chunk group at a time, one
 * event-loop turn each. `onDone` runs once every ban is in. Returns a function that stops it
 * (the server stopping): bans not yet taken in are read at the next start like any other.
 */
export function absorbImportedBans(
  bans: BanStore,
  { importId, fromId, toId }: { importId: number; fromId: number; toId: number },
  onDone: () => void = () => {},
): () => void {
  // Each ban goes to its group as its batch is read, not all 100,000 in one turn after the last.
  const groups: ActiveBan[][] = Array.from({ length: GROUPS }, () => []);
  let timer: NodeJS.Timeout | undefined;
  const later = (run: () => void, ms: number) => {
    timer = setTimeout(run, ms);
    timer.unref();
  };
  const readFrom = (id: number) => {
    const batch = bans.readImportRows(importId, id, toId, READ_BATCH);
    for (const ban of batch.bans) groups[groupOf(ban)]!.push(ban);
    if (batch.next !== undefined) later(() => readFrom(batch.next!), 0);
    else
      handOver(
        groups.filter((group) => group.length > 0),
        0,
      );
  };
  const handOver = (groups: ActiveBan[][], index: number) => {
    if (index >= groups.length) return onDone();
    bans.absorb(groups[index]!);
    later(() => handOver(groups, index + 1), PAUSE_MS);
  };
  readFrom(fromId);
  return () => clearTimeout(timer);
}
