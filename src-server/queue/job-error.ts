import { isSqliteBusy } from '../storage/background-write.ts';

/**
 * Errors between the web thread and the workers travel as plain typed objects (structured clone
 * keeps neither the class nor fields such as `code` of a SqliteError) and are rebuilt here.
 */

/** Why a job failed, which decides what the queue does with it. */
export type JobFailureKind =
  /** The job itself cannot be run (it cannot cross the thread boundary): answered 400, never retried or parked. */
  | 'input'
  /** The database stayed locked through the worker's retries with backoff: answered 503, not parked. */
  | 'busy'
  /** Anything else: a defect or a crash. Retried, then parked in failed_jobs. */
  | 'unexpected';

/** An error as plain data. */
export interface WireError {
  name: string;
  message: string;
  /** SQLite result code (`SQLITE_BUSY_SNAPSHOT`), Node error code, ... */
  code?: string;
  stack?: string;
}

/** Plain data for any thrown value; non-errors (a thrown string or object) keep a readable message. */
export function toWireError(error: unknown): WireError {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      message: error.message,
      ...(typeof code === 'string' ? { code } : {}),
      ...(error.stack ? { stack: error.stack } : {}),
    };
  }
  if (typeof error === 'object' && error !== null) {
    // A structured-clone copy of an error from another thread: an object with the same fields.
    const { name, message, code, stack } = error as Record<string, unknown>;
    if (typeof message === 'string') {
      return {
        name: typeof name === 'string' ? name : 'Error',
        message,
        ...(typeof code === 'string' ? { code } : {}),
        ...(typeof stack === 'string' ? { stack } : {}),
      };
    }
    let text: string;
    try {
      text = JSON.stringify(error);
    } catch {
      text = Object.prototype.toString.call(error);
    }
    return { name: 'NonErrorThrown', message: text.slice(0, 2000) };
  }
  return { name: 'NonErrorThrown', message: String(error) };
}

/** A worker's error rebuilt on the web thread, for pino's `err` serializer and for callers. */
export class JobError extends Error {
  readonly code?: string;

  constructor(
    readonly kind: JobFailureKind,
    wire: WireError,
  ) {
    super(wire.message);
    this.name = wire.name;
    if (wire.code !== undefined) this.code = wire.code;
    // The worker's stack says where it failed; this constructor's would only say where it was rebuilt.
    if (wire.stack) this.stack = wire.stack;
  }

  /** One line for failed_jobs and client-free logs: `SqliteError [SQLITE_BUSY]: database is locked`. */
  get summary(): string {
    return `${this.name}${this.code ? ` [${this.code}]` : ''}: ${this.message}`;
  }
}

/** SQLite reports a locked database as SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, ...). */
export const isBusyError = isSqliteBusy;
