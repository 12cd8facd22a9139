import { z } from 'zod';

/** Largest usage-metrics body accepted (a bouncer's 15-minute report is a few KB). */
export const USAGE_METRICS_MAX_BYTES = 64 * 1024;

const item = z.object({
  name: z.string().max(128),
  value: z.number().finite(),
  unit: z.string().max(64),
  labels: z.record(z.string().max(128), z.string().max(256)).optional(),
});

const detailed = z.object({
  meta: z.object({
    window_size_seconds: z.number().int().nonnegative(),
    utc_now_timestamp: z.number().int().nonnegative(),
  }),
  items: z.array(item).max(500),
});

const component = z.object({
  type: z.string().max(128).optional(),
  name: z.string().max(128).optional(),
  version: z.string().max(128),
  os: z
    .object({ name: z.string().max(128), version: z.string().max(128) })
    .partial()
    .optional(),
  feature_flags: z.array(z.string().max(128)).max(100).optional(),
  last_pull: z.number().int().nonnegative().optional(),
  utc_startup_timestamp: z.number().int().nonnegative(),
  metrics: z.array(detailed).max(100).optional(),
});

/** The CrowdSec LAPI's `AllMetrics` as a remediation component (bouncer) sends it. */
export const usageMetricsSchema = z.object({
  remediation_components: z.array(component).min(1, "must hold the bouncer's own report").max(10),
  log_processors: z.array(z.unknown()).max(0, 'log processors do not report to this server').optional(),
});

export type UsageMetrics = z.infer<typeof usageMetricsSchema>;

/** What the console shows of a bouncer's reports: who it is, and what it says it dropped, per origin. */
export interface BouncerReport {
  type: string | null;
  name: string | null;
  version: string | null;
  os: string | null;
  /** Running totals from every window reported, e.g. {"pbx-networkfilters": {"packet": 12, "byte": 800}}. */
  dropped: Record<string, Record<string, number>>;
  /** The decisions it says it holds (`active_decisions`, all origins, its newest window); null until it says. */
  active?: number | null;
}

export const emptyReport = (): BouncerReport => ({
  type: null,
  name: null,
  version: null,
  os: null,
  dropped: {},
  active: null,
});

/** The `active_decisions` gauge of a report's newest window that has one, summed over origins and families. */
function activeDecisions(windows: NonNullable<UsageMetrics['remediation_components'][number]['metrics']>) {
  let newest: { at: number; total: number } | undefined;
  for (const window of windows) {
    const items = window.items.filter((entry) => entry.name === 'active_decisions');
    if (items.length === 0 || (newest && newest.at > window.meta.utc_now_timestamp)) continue;
    newest = { at: window.meta.utc_now_timestamp, total: items.reduce((sum, entry) => sum + entry.value, 0) };
  }
  return newest?.total;
}

/** Folds one report into the running record: identity and active decisions from the latest, dropped counts added up by origin and unit. */
export function foldReport(previous: BouncerReport, metrics: UsageMetrics): BouncerReport {
  const next: BouncerReport = { ...previous, dropped: structuredClone(previous.dropped) };
  for (const report of metrics.remediation_components) {
    next.type = report.type ?? next.type;
    next.name = report.name ?? next.name;
    next.version = report.version;
    if (report.os) next.os = [report.os.name, report.os.version].filter(Boolean).join(' ') || next.os;
    next.active = activeDecisions(report.metrics ?? []) ?? next.active ?? null;
    for (const window of report.metrics ?? []) {
      for (const entry of window.items) {
        if (entry.name !== 'dropped') continue;
        const origin = entry.labels?.origin ?? 'unknown';
        const byUnit = (next.dropped[origin] ??= {});
        byUnit[entry.unit] = (byUnit[entry.unit] ?? 0) + entry.value;
      }
    }
  }
  return next;
}

/** Zod issues as one readable line. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}
