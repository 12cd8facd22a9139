import type { Finding } from './finding.ts';

/**
 * The surge rule (docs/health.md): over the last 15 minutes, intrusion failures or intrusion bans
 * reach max(SURGE_MIN[series], SURGE_FACTOR × the baseline), the baseline being the same series'
 * count in the 4 hours before those 15 minutes, scaled to 15 minutes (divided by 16, or by the
 * quarter-hours actually watched since start-up when fewer: the counts live in memory). Raised once;
 * it clears when both series fall under half the threshold it rose at (the baseline is frozen at
 * the rise, so a long attack does not become its own baseline and flap).
 */
export const SURGE_WINDOW_MS = 15 * 60_000;
export const SURGE_BASELINE_MS = 4 * 60 * 60_000;
/** Below these, 15 minutes are no surge whatever the baseline (one scanner earns 20 failures and a ban). */
export const SURGE_MIN = { failures: 100, bans: 10 } as const;
export const SURGE_FACTOR = 5;
const MINUTE = 60_000;
const WINDOW_MINUTES = SURGE_WINDOW_MS / MINUTE;
const BASELINE_SCALE = SURGE_BASELINE_MS / SURGE_WINDOW_MS;
/** Distinct sources counted per minute; more are summed as "others" (an attack from a botnet stays bounded). */
const MAX_SOURCES_PER_MINUTE = 1000;
const TOP = 5;

type Series = 'failures' | 'bans';

interface Bucket {
  failures: number;
  bans: number;
  /** Only kept for the last 15 minutes. */
  sources?: Map<string, number>;
  categories?: Map<string, number>;
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

function top(maps: Array<Map<string, number> | undefined>, count: number): Array<[string, number]> {
  const total = new Map<string, number>();
  for (const map of maps) for (const [key, n] of map ?? []) total.set(key, (total.get(key) ?? 0) + n);
  return [...total].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, count);
}

/** Per-minute counts of intrusion failures and bans over 4 h 15 min: constant work per event and per tick. */
export class SurgeWatch {
  private readonly buckets = new Map<number, Bucket>();
  private raisedAt: { failures: number; bans: number } | null = null;

  /** `watchedFrom`: when counting started (start-up); the baseline covers no time before it. */
  constructor(private readonly watchedFrom: number) {}

  record(series: Series, ip: string, category: string, at: number): void {
    const minute = Math.floor(at / MINUTE);
    let bucket = this.buckets.get(minute);
    if (!bucket)
      this.buckets.set(minute, (bucket = { failures: 0, bans: 0, sources: new Map(), categories: new Map() }));
    bucket[series]++;
    if (bucket.sources && (bucket.sources.has(ip) || bucket.sources.size < MAX_SOURCES_PER_MINUTE))
      bump(bucket.sources, ip);
    else if (bucket.sources) bump(bucket.sources, 'others');
    if (bucket.categories) bump(bucket.categories, `${category} ${series === 'bans' ? 'bans' : 'failures'}`);
  }

  /** The surge finding while one lasts (empty otherwise). */
  evaluate(now: number): Finding[] {
    const nowMinute = Math.floor(now / MINUTE);
    const recent: Bucket[] = [];
    const base = { failures: 0, bans: 0 };
    const current = { failures: 0, bans: 0 };
    for (const [minute, bucket] of this.buckets) {
      const age = nowMinute - minute;
      if (age >= WINDOW_MINUTES * (1 + BASELINE_SCALE)) this.buckets.delete(minute);
      else if (age >= WINDOW_MINUTES) {
        base.failures += bucket.failures;
        base.bans += bucket.bans;
        // Older than the window: who and what no longer matter, only the counts.
        delete bucket.sources;
        delete bucket.categories;
      } else {
        recent.push(bucket);
        current.failures += bucket.failures;
        current.bans += bucket.bans;
      }
    }
    // Quarter-hours of baseline actually watched (at least one, at most 16).
    const quarters = Math.min(
      BASELINE_SCALE,
      Math.max(1, (now - SURGE_WINDOW_MS - this.watchedFrom) / SURGE_WINDOW_MS),
    );
    const threshold = (series: Series) =>
      Math.max(SURGE_MIN[series], Math.ceil((SURGE_FACTOR * base[series]) / quarters));
    if (!this.raisedAt) {
      if (current.failures < threshold('failures') && current.bans < threshold('bans')) return [];
      this.raisedAt = { failures: threshold('failures'), bans: threshold('bans') };
    } else if (current.failures < this.raisedAt.failures / 2 && current.bans < this.raisedAt.bans / 2) {
      this.raisedAt = null;
      return [];
    }
    const usual = (series: Series) => Math.round((base[series] / quarters) * 10) / 10;
    const sources = top(
      recent.map((b) => b.sources),
      TOP,
    ).map(([ip, n]) => `${ip} (${n})`);
    const categories = top(
      recent.map((b) => b.categories),
      TOP,
    ).map(([name, n]) => `${name} ${n}`);
    return [
      {
        id: 'attack-surge',
        kind: 'attack-surge',
        severity: 'warning',
        title:
          `Attack surge: ${current.failures} intrusion failures and ${current.bans} bans in the last 15 min ` +
          `(usually ${usual('failures')} failures and ${usual('bans')} bans per 15 min)`,
        recoveredTitle: 'The attack surge is over: failures and bans are back near their usual level',
        detail: `Top sources: ${sources.join(', ') || 'none'}. Categories: ${categories.join(', ') || 'none'}.`,
        action: 'Bans',
        area: 'bans',
      },
    ];
  }
}
