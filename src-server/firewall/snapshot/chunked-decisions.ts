import type { DecisionParts } from '../model/index.ts';

/** Members are spread over this many chunks per class (by decision id); each renders and compresses on its own. */
export const CHUNKS = 256;

const COMMA = Buffer.from(',');
const EMPTY = Buffer.alloc(0);

/** What a chunk needs of a member: its identity and id, and its JSON as of a time. */
export interface ChunkMember {
  identity: string;
  parts: DecisionParts;
}

interface Chunk<M extends ChunkMember> {
  members: Map<string, M>;
  json: Buffer;
  renderedAt: number;
  dirty: boolean;
}

const emptyChunk = <M extends ChunkMember>(): Chunk<M> => ({
  members: new Map(),
  json: EMPTY,
  renderedAt: 0,
  dirty: false,
});

/**
 * A set of published decisions kept as rendered JSON chunks, so a change costs what it touches:
 * a member added, changed or removed re-renders only its chunk, and an untouched chunk keeps the
 * same Buffer (which the compressor reuses). Members whose duration ticks (bans) live apart from
 * members whose duration is fixed (filter entries), so the per-second refresh of durations never
 * re-renders the fixed ones.
 */
export class ChunkedDecisions<M extends ChunkMember> {
  private readonly fixed: Chunk<M>[] = Array.from({ length: CHUNKS }, () => emptyChunk<M>());
  private readonly ticking: Chunk<M>[] = Array.from({ length: CHUNKS }, () => emptyChunk<M>());
  private readonly home = new Map<string, Chunk<M>>();

  constructor(private readonly renderMember: (member: M, now: number) => string) {}

  get size(): number {
    return this.home.size;
  }

  get(identity: string): M | undefined {
    return this.home.get(identity)?.members.get(identity);
  }

  has(identity: string): boolean {
    return this.home.has(identity);
  }

  *values(): IterableIterator<M> {
    for (const chunks of [this.fixed, this.ticking]) for (const chunk of chunks) yield* chunk.members.values();
  }

  /** Adds or updates a member (its chunk re-renders); `ticks` says whether its duration counts down. */
  put(member: M, ticks: boolean): void {
    const chunk = (ticks ? this.ticking : this.fixed)[member.parts.id % CHUNKS]!;
    const previous = this.home.get(member.identity);
    if (previous && previous !== chunk) {
      previous.members.delete(member.identity);
      previous.dirty = true;
    }
    chunk.members.set(member.identity, member);
    chunk.dirty = true;
    this.home.set(member.identity, chunk);
  }

  delete(identity: string): boolean {
    const chunk = this.home.get(identity);
    if (!chunk) return false;
    chunk.members.delete(identity);
    chunk.dirty = true;
    this.home.delete(identity);
    return true;
  }

  /** Marks a member's chunk for re-rendering (its duration changed without a membership change). */
  touch(identity: string): void {
    const chunk = this.home.get(identity);
    if (chunk) chunk.dirty = true;
  }

  clear(): void {
    for (const chunk of [...this.fixed, ...this.ticking]) {
      chunk.members.clear();
      chunk.dirty = true;
    }
    this.home.clear();
  }

  /**
   * Re-renders every changed chunk, then the stalest ticking chunks (older than `tickMs`) while
   * `budget` members last. Returns how many members were rendered.
   */
  render(now: number, tickMs: number, budget: number): number {
    let rendered = 0;
    const renderChunk = (chunk: Chunk<M>) => {
      const fragments: string[] = [];
      for (const member of chunk.members.values()) fragments.push(this.renderMember(member, now));
      chunk.json = fragments.length ? Buffer.from(fragments.join(','), 'latin1') : EMPTY;
      chunk.renderedAt = now;
      chunk.dirty = false;
      rendered += fragments.length;
    };
    for (const chunk of this.fixed) if (chunk.dirty) renderChunk(chunk);
    for (const chunk of this.ticking) if (chunk.dirty) renderChunk(chunk);
    if (rendered >= budget) return rendered;
    const stale = this.ticking
      .filter((chunk) => chunk.members.size > 0 && now - chunk.renderedAt >= tickMs)
      .sort((a, b) => a.renderedAt - b.renderedAt);
    for (const chunk of stale) {
      if (rendered >= budget) break;
      renderChunk(chunk);
    }
    return rendered;
  }

  /** The rendered chunks as the parts of a JSON array's content, commas between (no brackets). */
  parts(): Buffer[] {
    const out: Buffer[] = [];
    for (const chunks of [this.fixed, this.ticking]) {
      for (const chunk of chunks) {
        if (chunk.json.length === 0) continue;
        if (out.length > 0) out.push(COMMA);
        out.push(chunk.json);
      }
    }
    return out;
  }

  /** Whether any member's duration ticks (the snapshot must then be rebuilt every second). */
  get hasTicking(): boolean {
    return this.ticking.some((chunk) => chunk.members.size > 0);
  }
}
