import type { ServerBus } from '../bus.ts';
import type { JobResponse } from './messages.ts';

/**
 * The one place a worker's events reach the web thread's bus: a finished job's events, in the order
 * the worker raised them. Only `RequestQueue.run` calls it, so a job answered in the request and an
 * async job publish alike, exactly once.
 */
export function publishWorkerEvents(bus: ServerBus, outcome: JobResponse | { kind: 'failed' }): void {
  if (outcome.kind !== 'done') return;
  for (const event of outcome.events) bus.emit(event);
}
