import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { crc32Combine } from './crc32-combine.ts';
import { snapshotParts, type DecisionSnapshot } from './decision-snapshot.ts';

const deflateRawAsync = promisify(deflateRaw);

/** `{"new":[`: the start every stream answer shares (and the compressed head begins with). */
export const NEW_OPEN = Buffer.from('{"new":[');

/** Below this size an answer goes uncompressed: gzip would cost more than the bytes it saves. */
export const GZIP_ABOVE_BYTES = 16 * 1024;

/** How long a poll waits for a new snapshot's compression before it is served the previous one. */
export const STALE_AFTER_MS = 50;
/** Smaller snapshots compress in a few milliseconds: their polls always wait for the newest. */
const STALE_MIN_BYTES = 1024 * 1024;

/** RFC 1952 header: deflate, no flags, no mtime, fastest compression, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255]);

/** The compressed head every poll of one snapshot (in one form) shares: `{"new":[` and the decisions. */
interface SharedHead {
  /** The parts' deflate segments, in order (written as they are: never joined into one copy). */
  deflated: readonly Buffer[];
  /** CRC-32 and length of the uncompressed text it stands for. */
  crc: number;
  length: number;
}

/**
 * Compresses snapshots for gzip polls. Every part of a snapshot (the filter decisions, each ban
 * chunk, the commas) is compressed on its own as raw deflate ending on a sync flush: such segments
 * concatenate into one deflate stream, so a part is compressed once, in zlib's thread pool, and
 * reused by every later snapshot that still holds the same Buffer. A change recompresses only
 * the parts it touched. While a large new snapshot compresses, polls are served the newest
 * snapshot already compressed: an older but consistent state, whose version their cursor records.
 */
export class SnapshotCompressor {
  private readonly segments = new WeakMap<Buffer, Promise<Buffer>>();
  /** Each part's CRC-32, computed once: a snapshot's CRC is combined from its parts' (crc32Combine). */
  private readonly crcs = new WeakMap<Buffer, number>();
  private readonly heads = new WeakMap<DecisionSnapshot, Map<boolean, Promise<SharedHead>>>();
  private readonly done = new WeakSet<Promise<SharedHead>>();
  private readonly lastReady = new Map<boolean, DecisionSnapshot>();
  /** How many parts were compressed, and how many bytes they held (the benchmark reads them). */
  compressions = 0;
  compressedBytes = 0;

  constructor(private readonly prefix: Buffer) {}

  /**
   * The snapshot to answer a gzip poll with: `latest` once compressed; for a large snapshot whose
   * compression takes longer than STALE_AFTER_MS, the newest one already compressed.
   */
  async servable(latest: DecisionSnapshot, expanded: boolean): Promise<DecisionSnapshot> {
    const pending = this.head(latest, expanded);
    const previous = this.lastReady.get(expanded);
    if (this.done.has(pending) || !previous || latest.count * 100 < STALE_MIN_BYTES) return latest;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, STALE_AFTER_MS, false)));
    const finished = await Promise.race([pending.then(() => true), waited]);
    clearTimeout(timer);
    return finished ? latest : previous;
  }

  /**
   * The whole answer as ONE gzip member (any decoder reads it; libcurl stops after a first member):
   * header, the shared head, this poll's `tail` as the final deflate block, and a trailer whose
   * CRC-32 continues the head's.
   */
  async answer(snapshot: DecisionSnapshot, expanded: boolean, tail: string): Promise<Buffer[]> {
    const head = await this.head(snapshot, expanded);
    const tailText = Buffer.from(tail);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(tailText, head.crc) >>> 0, 0);
    trailer.writeUInt32LE((head.length + tailText.length) % 2 ** 32, 4);
    return [GZIP_HEADER, ...head.deflated, deflateRawSync(tailText, { level: 1 }), trailer];
  }

  private segment(part: Buffer): Promise<Buffer> {
    let pending = this.segments.get(part);
    if (!pending) {
      this.compressions++;
      this.compressedBytes += part.length;
      pending = deflateRawAsync(part, { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
      this.segments.set(part, pending);
    }
    return pending;
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
    const parts = [this.prefix, ...snapshotParts(snapshot, expanded)];
    const deflated = await Promise.all(parts.map((part) => this.segment(part)));
    let crc = 0;
    let length = 0;
    for (const part of parts) {
      crc = crc32Combine(crc, this.crcOf(part), part.length);
      length += part.length;
    }
    return { deflated, crc, length };
  }

  private crcOf(part: Buffer): number {
    let crc = this.crcs.get(part);
    if (crc === undefined) this.crcs.set(part, (crc = crc32(part)));
    return crc;
  }
}
