import { threadId, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import type { BusEvent } from '../bus.ts';
import { renderEnvelope } from '../wire/envelope.ts';
import { coreResources } from '../resources/index.ts';
import { importResourceModule, ResourceRegistry } from '../resource-kit/registry.ts';
import { openDatabase, type Db } from '../storage/database.ts';
import { isBusyError, toWireError } from '../queue/job-error.ts';
import { COMPRESS_ABOVE_BYTES, type JobRequest, type JobResponse, type WorkerInit } from '../queue/messages.ts';
import { retryWhileBusy } from './busy-retry.ts';
import { trimHeapAfterJob } from './heap-trim.ts';
import { findHandler, runAction } from './dispatch.ts';
import { loadWorkerModules } from '../modules/worker-modules.ts';
import type { ActionContext } from '../resource-kit/types.ts';
import { isAuditedWrite, runAuditedWrite } from './audit-write.ts';
import { declaredSecretNames } from '../audit/diff.ts';

interface WorkerState {
  db: Db;
  registry: ResourceRegistry;
  /** Every resource's declared secrets, masked at any depth of an audited body. */
  secretNames: ReadonlySet<string>;
}

const init = workerData as WorkerInit;

async function load(): Promise<WorkerState> {
  const registry = new ResourceRegistry(coreResources);
  for (const file of init.resourceModules) {
    for (const definition of await importResourceModule(file)) registry.add(definition);
  }
  await loadWorkerModules(init.modules ?? [], registry, init.moduleLoadTimeoutMs);
  return {
    db: openDatabase(init.databaseFile),
    registry,
    secretNames: declaredSecretNames(registry.all().map((d) => d.declaration)),
  };
}

// Loaded as the thread starts, so the first request does not pay for it. A failure fails each job.
const state: Promise<WorkerState> = load();

/**
 * Runs one job and returns the finished envelope. A failure is returned as plain data (a thrown
 * error would lose its class and code crossing the thread boundary): a locked database after the
 * retries with backoff is `busy`, anything else `unexpected` (the queue retries it, then parks it).
 */
async function runJob(job: JobRequest): Promise<JobResponse> {
  const ageMs = Date.now() - job.enqueuedAt;
  if (!job.ttlExempt && ageMs > job.ttlMs) return { kind: 'expired', ageMs };
  try {
    return await retryWhileBusy(() => attempt(job));
  } catch (error) {
    return { kind: 'error', failure: isBusyError(error) ? 'busy' : 'unexpected', error: toWireError(error) };
  } finally {
    trimHeapAfterJob();
  }
}

/** One try of a job; its events are kept only when it succeeds. */
async function attempt(job: JobRequest): Promise<JobResponse> {
  const { db, registry, secretNames } = await state;
  const definition = registry.get(job.target.resource);
  const handler = definition && findHandler(definition, job.target.operation, { checkOutputs: init.checkOutputs });
  if (!definition || !handler) throw new Error(`No action for ${job.target.resource}:${job.target.operation}`);

  const events: BusEvent[] = [];
  const ctx: ActionContext = {
    db,
    resource: definition.declaration,
    operation: job.target.operation,
    verb: job.target.verb,
    id: job.target.id,
    input: undefined, // set from the declared schema by the handler's input check (dispatch.ts)
    query: job.query,
    body: job.body,
    headers: job.headers,
    session: job.session,
    canReadSensitive: job.canReadSensitive,
    pid: threadId,
    now: () => Date.now(),
    emit: (event) => events.push(event),
  };
  const result = isAuditedWrite(job)
    ? await runAuditedWrite(
        definition,
        handler,
        ctx,
        job,
        (error) => console.error('audit log: the write could not be recorded', error),
        secretNames,
      )
    : await runAction(handler, ctx);
  const rendered = renderEnvelope(
    result,
    {
      function: job.target.operation,
      processor: definition.declaration.processor ?? definition.declaration.name,
      pid: threadId,
    },
    job.envelopeExtra,
  );
  if (Buffer.byteLength(rendered.body) <= COMPRESS_ABOVE_BYTES) {
    return {
      kind: 'done',
      status: rendered.status,
      hash: rendered.hash,
      body: rendered.body,
      compressed: false,
      events,
    };
  }
  // Compressed here, off the web thread; the gzip is small, so a structured-clone copy is cheap.
  const body = new Uint8Array(gzipSync(rendered.body));
  return { kind: 'done', status: rendered.status, hash: rendered.hash, body, compressed: true, events };
}

/**
 * Worker entry. piscina awaits a promised handler before it reports the thread ready, so no job
 * reaches this worker before its modules have loaded (or failed to), and the load never races an
 * idle thread. A failed load still yields the handler: each job then reports the failure.
 */
export default state.then(
  () => runJob,
  () => runJob,
);
