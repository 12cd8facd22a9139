import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { crc32Combine } from './crc32-combine.ts';
import type { DecisionSnapshot, ManualForm } from './decision-snapshot.ts';

const deflateRawAsync = promisify(deflateRaw);

/** Below this size an answer goes uncompressed: gzip would cost more than the bytes it saves. */
export const GZIP_ABOVE_BYTES = 16 * 1024;

/** How long a poll waits for a new snapshot's compression before it is served the previous one. */
export const STALE_AFTER_MS = 50;
/** Smaller snapshots compress in a few milliseconds: their polls always wait for the newest. */
const STALE_MIN_BYTES = 1024 * 1024;

/** RFC 1952 header: deflate, no flags, no mtime, fastest compression, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255]);

/** Uncompressed text as raw deflate blocks ending on a byte boundary (not final), with its CRC and length. */
interface Segment {
  deflated: Buffer;
  crc: number;
  length: number;
}

/**
 * Raw deflate of `data`, sync-flushed instead of finished: such segments concatenate into one
 * deflate stream, so shared text is compressed once and each poll appends only its own end.
 * Runs in zlib's thread pool, off the event loop.
 */
async function segmentOf(data: Buffer): Promise<Segment> {
  const deflated = await deflateRawAsync(data, { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
  return { deflated, crc: crc32(data), length: data.length };
}

/** The compressed head every poll of one snapshot (in one form) shares: `{"new":[` and the decisions. */
interface SharedHead {
  segments: Buffer[];
  crc: number;
  length: number;
}

/**
 * Compresses each snapshot once per form (plain or expanded ranges) and hands polls a finished
 * head. The filter decisions are compressed once per configuration, the bans once per snapshot.
 * While a new snapshot compresses, polls are served the newest snapshot already compressed: an
 * older but consistent state, whose version is what their cursor then records.
 */
export class SnapshotCompressor {
  private readonly manual = new WeakMap<ManualForm, Promise<Segment>>();
  private readonly bans = new WeakMap<DecisionSnapshot, Promise<Segment>>();
  private readonly heads = new WeakMap<DecisionSnapshot, Map<boolean, Promise<SharedHead>>>();
  private readonly done = new WeakSet<Promise<SharedHead>>();
  private readonly lastReady = new Map<boolean, DecisionSnapshot>();
  /** How many compressed heads were made (the benchmark reads it). */
  compressions = 0;

  constructor(private readonly prefix: Buffer) {}

  /**
   * The snapshot to answer a gzip poll with: `latest` once compressed; for a large snapshot whose
   * compression takes longer than STALE_AFTER_MS, the newest one already compressed.
   */
  async servable(latest: DecisionSnapshot, expanded: boolean): Promise<DecisionSnapshot> {
    const pending = this.head(latest, expanded);
    const previous = this.lastReady.get(expanded);
    if (this.done.has(pending) || !previous || latest.bans.length < STALE_MIN_BYTES) return latest;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, STALE_AFTER_MS, false)));
    const finished = await Promise.race([pending.then(() => true), waited]);
    clearTimeout(timer);
    return finished ? latest : previous;
  }

  /**
   * The whole answer as ONE gzip member (any decoder reads it; libcurl stops after a first member):
   * header, the shared segments, this poll's `tail` as the final deflate block, and a trailer whose
   * CRC-32 continues the shared part's.
   */
  async answer(snapshot: DecisionSnapshot, expanded: boolean, tail: string): Promise<Buffer[]> {
    const head = await this.head(snapshot, expanded);
    const tailText = Buffer.from(tail);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32Combine(head.crc, crc32(tailText), tailText.length), 0);
    trailer.writeUInt32LE((head.length + tailText.length) % 2 ** 32, 4);
    return [GZIP_HEADER, ...head.segments, deflateRawSync(tailText, { level: 1 }), trailer];
  }

  private head(snapshot: DecisionSnapshot, expanded: boolean): Promise<SharedHead> {
    let forms = this.heads.get(snapshot);
    if (!forms) this.heads.set(snapshot, (forms = new Map()));
    let pending = forms.get(expanded);
    if (pending) return pending;
    pending = this.compress(snapshot, expanded);
    forms.set(expanded, pending);
    const settled = pending;
    void settled.then(
      () => {
        this.done.add(settled);
        const previous = this.lastReady.get(expanded);
        if (!previous || previous.builtAt <= snapshot.builtAt) this.lastReady.set(expanded, snapshot);
      },
      () => forms.delete(expanded),
    );
    return pending;
  }

  private async compress(snapshot: DecisionSnapshot, expanded: boolean): Promise<SharedHead> {
    this.compressions++;
    const form = expanded ? snapshot.manual.expanded() : snapshot.manual.plain;
    let manual = this.manual.get(form);
    if (!manual) this.manual.set(form, (manual = segmentOf(Buffer.concat([this.prefix, form.json]))));
    // Both forms are empty or not together, so the separator and the ban segment are shared.
    let bans = this.bans.get(snapshot);
    if (!bans) {
      const separator = snapshot.manual.plain.json.length > 0 && snapshot.bans.length > 0 ? ',' : '';
      this.bans.set(snapshot, (bans = segmentOf(Buffer.concat([Buffer.from(separator), snapshot.bans]))));
    }
    const [head, rest] = await Promise.all([manual, bans]);
    return { segments: [head.deflated, rest.deflated], crc: crc32Combine(head.crc, rest.crc, rest.length), length: head.length + rest.length };
  }
}
