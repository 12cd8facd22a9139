import type { ActiveBan } from '../bans/index.ts';

/**
 * Bans by expiry time, soonest first (a binary min-heap), so a build finds what expired without
 * scanning every ban. An extended ban keeps its old entry: when that entry comes up, the ban is
 * queued again at its new time instead of being reported.
 */
export class ExpiryQueue {
  private heap: Array<{ at: number; ban: ActiveBan }> = [];

  /** When the next ban may expire (Infinity when none is queued). */
  nextAt(): number {
    return this.heap[0]?.at ?? Infinity;
  }

  push(ban: ActiveBan): void {
    this.heap.push({ at: ban.expiresAt, ban });
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.heap[parent]!.at <= this.heap[i]!.at) break;
      [this.heap[parent], this.heap[i]] = [this.heap[i]!, this.heap[parent]!];
      i = parent;
    }
  }

  /** Removes and returns the bans whose expiry is at or before `now`. */
  popExpired(now: number): ActiveBan[] {
    const out: ActiveBan[] = [];
    while (this.heap.length > 0 && this.heap[0]!.at <= now) {
      const { at, ban } = this.pop();
      if (ban.expiresAt > at) this.push(ban);
      else out.push(ban);
    }
    return out;
  }

  clear(): void {
    this.heap = [];
  }

  get size(): number {
    return this.heap.length;
  }

  private pop(): { at: number; ban: ActiveBan } {
    const top = this.heap[0]!;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < this.heap.length && this.heap[left]!.at < this.heap[smallest]!.at) smallest = left;
        if (right < this.heap.length && this.heap[right]!.at < this.heap[smallest]!.at) smallest = right;
        if (smallest === i) break;
        [this.heap[smallest], this.heap[i]] = [this.heap[i]!, this.heap[smallest]!];
        i = smallest;
      }
    }
    return top;
  }
}
