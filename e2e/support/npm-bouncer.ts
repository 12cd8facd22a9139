import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Decision } from '../../src-server/test-support/bouncer.ts';
import type { DriverCommand, DriverReply, WireExchange } from './npm-bouncer-protocol.ts';

const DRIVER = fileURLToPath(new URL('./npm-bouncer-driver.ts', import.meta.url));
/** A command before it gets its id (Omit over each member of the union). */
type CommandWithoutId = DriverCommand extends infer C ? (C extends DriverCommand ? Omit<C, 'id'> : never) : never;
/** pino's numeric level for `warn`: anything at or above it is a warning or an error. */
const PINO_WARN = 40;

export interface NpmBouncerOptions {
  /** The export's base URL without a trailing `/` (the client appends `/v1/...` itself). */
  url: string;
  apiKey: string;
  /** true: polls `/v1/decisions/stream`; false: live mode, asks `/v1/decisions?ip=` per address. */
  streamMode: boolean;
  /** Live mode: how long (seconds) the client caches a bad or a clean address. */
  badIpCacheDuration?: number;
  cleanIpCacheDuration?: number;
}

/** One line the client's logger wrote (pino JSON), or anything else it printed. */
export interface LogLine {
  level: number;
  msg: string;
  raw: string;
}

/** One decision as the client's cache holds it (what `refreshDecisions` returns). */
export interface CachedDecision {
  id: string;
  origin: string;
  value: string;
}

export interface StreamAnswer {
  new: Decision[] | null;
  deleted: Decision[] | null;
}

export interface RefreshResult {
  /** What the client stored and removed in its cache. */
  stored: CachedDecision[];
  removed: CachedDecision[];
  /** The stream answer the client read off the wire for this refresh. */
  answer: StreamAnswer;
}

export interface NpmBouncer {
  /** One stream poll (`refreshDecisions`): the first asks `startup=true`. */
  refresh(): Promise<RefreshResult>;
  /** The client's verdict for an address: `ban`, `captcha` or `bypass`. */
  remediation(ip: string): Promise<string>;
  /** Every HTTP exchange the client made so far. */
  exchanges(): WireExchange[];
  logs(): LogLine[];
  /** Log lines at warn level or above, and anything the process printed that is not a log line. */
  problems(): LogLine[];
  stop(): Promise<void>;
}

/** Starts the npm bouncer in a child process and waits until it is constructed. */
export async function startNpmBouncer(options: NpmBouncerOptions): Promise<NpmBouncer> {
  const child = fork(DRIVER, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, LOG_LEVEL: 'debug', NPM_BOUNCER_CONFIG: JSON.stringify(bouncerConfig(options)) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const logs: LogLine[] = [];
  const stderr: LogLine[] = [];
  readLines(child.stdout!, (raw) => logs.push(parseLogLine(raw)));
  readLines(child.stderr!, (raw) => stderr.push({ level: 60, msg: raw, raw }));
  const wire: WireExchange[] = [];
  const pending = new Map<number, (reply: DriverReply) => void>();
  child.on('message', (reply: DriverReply) => {
    wire.push(...reply.exchanges);
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });
  let nextId = 1;
  const ask = (command: CommandWithoutId): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) =>
        reply.error === undefined ? resolve(reply.result) : reject(new Error(`npm bouncer: ${reply.error}`)),
      );
      child.send({ ...command, id });
    });
  await waitReady(child, pending, () => stderr.map((l) => l.raw).join('\n'));

  return {
    async refresh() {
      const before = wire.length;
      const result = (await ask({ op: 'refresh' })) as { new: CachedDecision[]; deleted: CachedDecision[] };
      const poll = wire.slice(before).find((e) => e.url.includes('/v1/decisions/stream'));
      if (!poll) throw new Error('the refresh made no stream request');
      return { stored: result.new, removed: result.deleted, answer: JSON.parse(poll.body) as StreamAnswer };
    },
    async remediation(ip) {
      const result = (await ask({ op: 'remediation', ip })) as { remediation: string };
      return result.remediation;
    },
    exchanges: () => [...wire],
    logs: () => [...logs, ...stderr],
    problems: () => [...logs, ...stderr].filter((line) => line.level >= PINO_WARN),
    stop: () => stopChild(child),
  };
}

/** The configuration as the client's README documents it (CrowdSecBouncerConfigurations). */
function bouncerConfig(options: NpmBouncerOptions): Record<string, unknown> {
  return {
    url: options.url,
    bouncerApiToken: options.apiKey,
    streamMode: options.streamMode,
    ...(options.badIpCacheDuration === undefined ? {} : { badIpCacheDuration: options.badIpCacheDuration }),
    ...(options.cleanIpCacheDuration === undefined ? {} : { cleanIpCacheDuration: options.cleanIpCacheDuration }),
  };
}

function parseLogLine(raw: string): LogLine {
  try {
    const parsed = JSON.parse(raw) as { level?: unknown; msg?: unknown };
    if (typeof parsed.level === 'number') return { level: parsed.level, msg: String(parsed.msg ?? ''), raw };
  } catch {
    // not a pino line
  }
  // Anything else on stdout is unexpected output: treat it as a problem.
  return { level: 60, msg: raw, raw };
}

function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) onLine(line);
    }
  });
}

function waitReady(
  child: ChildProcess,
  pending: Map<number, (reply: DriverReply) => void>,
  stderr: () => string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`the npm bouncer exited (${code}) before it was ready: ${stderr()}`));
    child.once('exit', onExit);
    pending.set(0, () => {
      child.off('exit', onExit);
      resolve();
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
