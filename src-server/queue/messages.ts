import type { AuditActor, BusEvent, HttpVerb, ModuleEntry, OperationName, SessionContext } from '../wire/types.ts';
import type { JobFailureKind, WireError } from './job-error.ts';

/** The wire types between the web thread and the workers. Plain, structured-cloneable objects only. */

export interface JobTarget {
  resource: string;
  operation: OperationName;
  verb: HttpVerb;
  id?: string;
}

export interface JobRequest {
  jobId: string;
  /** Epoch ms when the web thread queued it; a worker drops it when older than ttlMs. */
  enqueuedAt: number;
  ttlMs: number;
  /** Async and debug jobs are exempt from the TTL (SPEC). */
  ttlExempt: boolean;
  attempt: number;
  target: JobTarget;
  query: Record<string, string | string[]>;
  body: unknown;
  headers: Record<string, string>;
  session: SessionContext | null;
  canReadSensitive: boolean;
  /** Who asked, for the audit log: every write a worker runs is recorded with it (worker/audit-write.ts). */
  actor?: AuditActor;
  /** Extra top-level envelope members (the legacy endpoints' `jsonapi`), rendered by the worker. */
  envelopeExtra?: Record<string, unknown>;
}

/** Bodies above this cross the thread boundary gzip-compressed (SPEC: 1 MB). */
export const COMPRESS_ABOVE_BYTES = 1024 * 1024;

export type JobResponse =
  | {
      kind: 'done';
      status: number;
      hash: string;
      /** The final envelope JSON, or its gzip when larger than COMPRESS_ABOVE_BYTES. */
      body: string | Uint8Array;
      compressed: boolean;
      events: BusEvent[];
    }
  | { kind: 'expired'; ageMs: number }
  /** The worker caught a failure: sent as plain data, rebuilt as a JobError by the queue. */
  | { kind: 'error'; failure: JobFailureKind; error: WireError };

/** Passed to each worker once, at thread start. */
export interface WorkerInit {
  databaseFile: string;
  resourceModules: string[];
  /** Extension modules the web thread loaded; each worker imports the same files. */
  modules?: ModuleEntry[];
  /** How long a worker waits for one module to load before leaving it out (config.moduleLoadTimeoutMs). */
  moduleLoadTimeoutMs?: number;
  /** Check each custom method's answer against its declared output (config.checkOutputs: development, tests). */
  checkOutputs?: boolean;
}
