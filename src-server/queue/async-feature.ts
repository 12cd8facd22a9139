import type { Feature } from '../features.ts';
import { registerEventsRoute } from '../http/events-route.ts';
import { AsyncJobs } from './async-jobs.ts';

/** Asynchronous requests: X-Async-Channel on v3 requests and the `events` push channel. */
export const asyncRequestsFeature: Feature = {
  name: 'async-requests',
  start(services) {
    const jobs = new AsyncJobs({ queue: services.queue, limits: services.queueLimits, clock: services.clock, bus: services.bus, logger: services.logger });
    services.asyncJobs = jobs;
    let closeStreams: (() => void) | undefined;
    return {
      routes(router) {
        closeStreams = registerEventsRoute(router, services, jobs);
      },
      stop() {
        closeStreams?.();
      },
    };
  },
};
