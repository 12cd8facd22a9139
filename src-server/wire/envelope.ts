import { createHash } from 'node:crypto';

export interface Messages {
  error?: string[];
  warning?: string[];
  info?: string[];
}

export interface Pagination {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

/** What an action returns. The envelope, status and meta are derived from it. */
export interface ActionResult {
  result: boolean;
  data?: unknown;
  messages?: Messages;
  /** Set by the action when the status is not the default (200 on success, 422 on failure). */
  httpCode?: number;
  pagination?: Pagination;
  /** Side effects a write made beyond its record (bans lifted by a whitelist entry), added to its audit entry; never rendered. */
  auditChanges?: Array<{ field: string; after: unknown }>;
}

export interface EnvelopeOrigin {
  function: string;
  processor: string;
  pid: number;
}

export interface RenderedEnvelope {
  status: number;
  body: string;
  hash: string;
}

/** SPEC: an unsuccessful result with no httpCode is 422. */
export function statusOf(result: ActionResult): number {
  return result.httpCode ?? (result.result ? 200 : 422);
}

function normaliseMessages(messages: Messages | undefined): Messages | [] {
  if (!messages) return [];
  const { error = [], warning = [], info = [] } = messages;
  return error.length || warning.length || info.length ? { error, warning, info } : [];
}

/**
 * Serialises the envelope once. The hash covers everything but `meta`, and meta is spliced on
 * the end so the payload is never stringified twice (large lists cross this path).
 */
export function renderEnvelope(
  result: ActionResult,
  origin: EnvelopeOrigin,
  extra: Record<string, unknown> = {},
  now: Date = new Date(),
): RenderedEnvelope {
  const envelope: Record<string, unknown> = {
    result: result.result,
    data: result.result ? (result.data ?? []) : [],
    messages: normaliseMessages(result.messages),
    function: origin.function,
    processor: origin.processor,
    pid: origin.pid,
    ...(result.httpCode !== undefined ? { httpCode: result.httpCode } : {}),
    ...(result.pagination ? { pagination: result.pagination } : {}),
    ...extra,
  };
  const content = JSON.stringify(envelope);
  const hash = createHash('sha1').update(content).digest('hex');
  const meta = JSON.stringify({ timestamp: isoWithOffset(now), hash });
  return { status: statusOf(result), body: `${content.slice(0, -1)},"meta":${meta}}`, hash };
}

/** An error envelope for failures raised before dispatch: empty function and processor. */
export function renderError(status: number, errors: string[], extra: Record<string, unknown> = {}): RenderedEnvelope {
  return renderEnvelope(
    { result: false, data: [], messages: { error: errors }, httpCode: status },
    { function: '', processor: '', pid: process.pid },
    extra,
  );
}

/** ISO 8601 with an explicit offset (`+00:00` rather than `Z`), as the SPEC's meta.timestamp. */
export function isoWithOffset(date: Date): string {
  const offsetMin = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offsetMin * 60_000).toISOString().slice(0, 19);
  const sign = offsetMin >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
