import type { ServerBus } from '../bus.ts';
import type { JobOutcome } from './request-queue.ts';

/**
 * The one place a worker's events reach the web thread's bus, for a job answered in the request or
 * run as an async job alike: a finished job's events, in the order the worker raised them.
 */
export function publishWorkerEvents(bus: ServerBus, outcome: JobOutcome): void {
  if (outcome.kind !== 'done') return;
  for (const event of outcome.events) bus.emit(event);
}
