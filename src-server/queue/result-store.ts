import type { Clock } from '../clock.ts';

/** SPEC: the result of a queued request is kept 120 s. */
export const RESULT_LIFETIME_MS = 120_000;

/** Finished results kept for later retrieval, each for a fixed lifetime. */
export class ResultStore<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly lifetimeMs = RESULT_LIFETIME_MS,
    /** Told of every entry dropped at expiry, so a caller can keep per-owner accounts. */
    private readonly onExpire: (value: T) => void = () => {},
  ) {}

  put(id: string, value: T): void {
    this.sweep();
    this.entries.set(id, { value, expiresAt: this.clock.now() + this.lifetimeMs });
  }

  get(id: string): T | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (this.clock.now() >= entry.expiresAt) {
      this.entries.delete(id);
      this.onExpire(entry.value);
      return undefined;
    }
    return entry.value;
  }

  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  /** When the oldest entry matching `test` expires (epoch ms), or undefined when none does. */
  firstExpiry(test: (value: T) => boolean): number | undefined {
    this.sweep();
    for (const entry of this.entries.values()) if (test(entry.value)) return entry.expiresAt;
    return undefined;
  }

  /** Drops expired entries; Map iteration is in insertion (= expiry) order, so it stops early. */
  sweep(): void {
    const now = this.clock.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(id);
      this.onExpire(entry.value);
    }
  }
}
