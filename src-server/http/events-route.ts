import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ServerResponse } from 'node:http';
import { renderEnvelope } from '../wire/envelope.ts';
import { notFound, serviceUnavailable } from '../wire/errors.ts';
import { sendEnvelope } from './respond.ts';
import { checkChannelName, ownerOf, type AsyncJobs, type FinishedJob } from '../queue/async-jobs.ts';
import type { Services } from '../services.ts';
import { EVENTS_PATH, eventsDeclaration } from '../resources/events/declaration.ts';
import { authenticate, authorize, pipeline, principalOf } from './pipeline.ts';
import { canReadSensitive } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { isLocalhostSocket, remoteIp } from '../auth/remote-address.ts';
import { DEFAULT_STREAM_LIMITS, StreamSlots } from './stream-slots.ts';

/** A comment line every so often keeps proxies and idle timers from closing a quiet stream. */
export const KEEPALIVE_MS = 15_000;

/**
 * `GET /pbxcore/api/v3/events?channel=<name>`: a Server-Sent Event stream of finished
 * asynchronous jobs. With `&jobId=<id>` it answers once with the job's stored envelope
 * (its own status), 202 while it runs, 404 when unknown or older than 120 s.
 */
export function registerEventsRoutes(router: Router, services: Services): () => void {
  const jobs = services.asyncJobs;
  const streams = new Set<ServerResponse>();
  const slots = new StreamSlots(DEFAULT_STREAM_LIMITS);
  const authorizeRead = authorize(() => ({ declaration: eventsDeclaration, level: 'READ' }));
  router.get(EVENTS_PATH, pipeline(authenticate(services), authorizeRead), async (ctx: Context) => {
    const principal = principalOf(ctx);
    const channel = checkChannelName(ctx.query.channel);
    const viewer = ownerOf(principal);
    const jobId = ctx.query.jobId;
    if (jobId !== undefined) return sendStoredResult(ctx, jobs, channel, viewer, String(jobId));
    if (ctx.method === 'HEAD') {
      ctx.status = 200;
      ctx.type = 'text/event-stream; charset=utf-8';
      return;
    }
    const slot = slots.claim({
      principal: viewer,
      address: remoteIp(ctx),
      loopback: isLocalhostSocket(ctx),
      admin: isAdmin(principal),
    });
    if (!slot.ok) throw serviceUnavailable(`${slot.reason}; close one or retry later.`, STREAM_RETRY_SECONDS);

    // Written straight to the socket: Koa's stream body would log every client disconnect as an error.
    const res = ctx.res;
    ctx.respond = false;
    ctx.status = 200; // for the access log
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    streams.add(res);
    res.write(`retry: 3000\nevent: ready\ndata: ${JSON.stringify({ channel })}\n\n`);
    const unsubscribe = jobs.subscribe(channel, viewer, (job) => res.write(eventOf(job)));
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    const close = () => {
      clearInterval(keepalive);
      unsubscribe();
      streams.delete(res);
      slot.release();
    };
    res.once('close', close);
    // A client gone before the listener was added would otherwise keep its slot forever.
    if (res.destroyed) close();
  });
  return () => {
    for (const res of streams) res.end();
  };
}

/** A refused stream is worth retrying once others have closed, not at once. */
const STREAM_RETRY_SECONDS = 10;

/** Admins share the reserve with this machine: admin users and full-permission keys (they see what an admin sees). */
function isAdmin(principal: Principal): boolean {
  return principal.channel !== 'localhost' && canReadSensitive(principal);
}

/** One SSE per job: `id` is the job id, data is `{jobId, channel, status, envelope}` on one line. */
export function eventOf(job: FinishedJob): string {
  const head = `{"jobId":${JSON.stringify(job.jobId)},"channel":${JSON.stringify(job.channel)}`;
  const data = `${head},"status":${job.status},"envelope":${job.body}}`;
  return `id: ${job.jobId}\nevent: result\ndata: ${data}\n\n`;
}

function sendStoredResult(ctx: Context, jobs: AsyncJobs, channel: string, viewer: string, jobId: string): void {
  const found = jobs.find(jobId, channel, viewer);
  if (!found)
    throw notFound(`No result for job "${jobId.slice(0, 100)}" on channel "${channel}": results are kept 120 s.`);
  if (found.state === 'pending') {
    const rendered = renderEnvelope(
      { result: true, data: { jobId, channel, state: 'pending' }, httpCode: 202 },
      { function: 'getResult', processor: eventsDeclaration.processor!, pid: process.pid },
    );
    return sendEnvelope(ctx, rendered);
  }
  sendEnvelope(ctx, { status: found.job.status, hash: found.job.hash, body: found.job.body });
}
