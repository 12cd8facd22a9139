/** How long one turn of the web thread may spend on queued items before it lets others run. */
export const SLICE_MS = 8;

/**
 * Items handled in order, at most about SLICE_MS of work per turn of the event loop: past it the
 * rest waits for the next turn (setImmediate), and `busy(true)` lets the producer pause its
 * source (a socket) until `busy(false)`. A burst of 10,000 AMI events a second then costs many
 * short turns, never one long one (a scanner's burst bans ~1,000 addresses at once, each a write).
 */
export class SlicedQueue<T> {
  private items: T[] = [];
  private head = 0;
  private scheduled = false;
  private stopped = false;
  /** The current turn's slice: one budget per turn, however many chunks the socket hands over in it. */
  private sliceOpen = false;
  private sliceEnds = 0;

  constructor(
    private readonly handle: (item: T) => void,
    private readonly busy: (paused: boolean) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Adds items; handles them now unless earlier ones are still waiting for their turn. */
  push(items: readonly T[]): void {
    if (this.stopped) return;
    for (const item of items) this.items.push(item);
    if (!this.scheduled) this.drain();
  }

  /** Drops what is waiting and handles nothing more (the link closed). */
  stop(): void {
    this.stopped = true;
    this.items = [];
    this.head = 0;
  }

  private drain(): void {
    this.scheduled = false;
    if (!this.sliceOpen) {
      this.sliceOpen = true;
      this.sliceEnds = this.now() + SLICE_MS;
      setImmediate(() => (this.sliceOpen = false));
    }
    while (this.head < this.items.length && !this.stopped) {
      if (this.now() >= this.sliceEnds) {
        // Queued after the immediate that closes this slice: the next turn opens a new one.
        this.scheduled = true;
        this.busy(true);
        setImmediate(() => this.drain());
        return;
      }
      this.handle(this.items[this.head++]!);
    }
    this.items = [];
    this.head = 0;
    this.busy(false);
  }
}
