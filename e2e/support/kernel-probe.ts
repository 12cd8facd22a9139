import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One HTTP request sent by curl from a chosen source address. */
export interface Probe {
  from: string;
  /** The HTTP status, or null when no answer came back (dropped, refused, timed out). */
  status: number | null;
  /** curl's exit code: 0 answered, 28 timed out (what a DROP rule gives), 7 refused. */
  curlExit: number;
}

/** curl's arguments to send from the source address `from` and print only the HTTP status. */
const statusFrom = (from: string) => [
  '--interface',
  from,
  '--silent',
  '--output',
  '/dev/null',
  '--write-out',
  '%{http_code}',
];

/** GET `url` with curl bound to the source address `from`, giving up after `timeoutSeconds`. */
export async function probe(from: string, url: string, timeoutSeconds = 0.5): Promise<Probe> {
  const args = [
    ...statusFrom(from),
    '--connect-timeout',
    String(timeoutSeconds),
    // A dropped probe ends at the connect timeout; an answer that is merely slow (a loaded machine,
    // a server's first request) gets 5 s more, so it is never taken for a drop.
    '--max-time',
    String(timeoutSeconds + 5),
    url,
  ];
  try {
    const { stdout } = await run('curl', args);
    return { from, status: Number(stdout) || null, curlExit: 0 };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string };
    return {
      from,
      status: Number(failure.stdout) || null,
      curlExit: typeof failure.code === 'number' ? failure.code : -1,
    };
  }
}

/** Sends `body` as JSON with curl from `from`; returns the HTTP status (null without an answer). */
export async function postFrom(from: string, url: string, body: unknown): Promise<number | null> {
  const args = [
    ...statusFrom(from),
    '--max-time',
    '3',
    '-H',
    'Content-Type: application/json',
    '--data',
    JSON.stringify(body),
    url,
  ];
  try {
    return Number((await run('curl', args)).stdout) || null;
  } catch (error) {
    return Number((error as { stdout?: string }).stdout) || null;
  }
}

/** A probe the kernel dropped: no answer at all, and curl gave up waiting (not refused, not an HTTP error). */
export const isDropped = (p: Probe) => p.status === null && p.curlExit === 28;
export const isServed = (p: Probe) => p.status === 200;

/**
 * Probes until the answer is 200, for at most `timeoutMs`: a sender that should be served is not failed by one
 * slow answer on a loaded machine, and one that is dropped still fails (its last probe timed out).
 */
export async function probeServed(from: string, url: string, timeoutMs = 20_000): Promise<Probe> {
  return (await waitForProbe(from, url, isServed, timeoutMs)).last;
}

export interface Waited {
  /** Whether `accept` held before the deadline. */
  ok: boolean;
  /** From the call to the first accepted probe (or to the deadline). */
  elapsedMs: number;
  last: Probe;
  /** What `mark` read as the accepted probe started (the bouncer's polls so far, say). */
  markAtAccept?: number;
}

/**
 * Probes from `from` until `accept` holds or `timeoutMs` passes; measures how long it took, and
 * reads `mark` as each probe starts (kept for the accepted one).
 */
export async function waitForProbe(
  from: string,
  url: string,
  accept: (p: Probe) => boolean,
  timeoutMs: number,
  since = Date.now(),
  mark?: () => number,
): Promise<Waited> {
  for (;;) {
    const markAtStart = mark?.();
    const last = await probe(from, url);
    const elapsedMs = Date.now() - since;
    if (accept(last)) return { ok: true, elapsedMs, last, markAtAccept: markAtStart };
    if (elapsedMs > timeoutMs) return { ok: false, elapsedMs, last };
    if (last.curlExit !== 28) await new Promise((r) => setTimeout(r, 200)); // a timeout already waited
  }
}
