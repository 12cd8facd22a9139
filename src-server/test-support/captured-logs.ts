import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { createLogger } from '../logger.ts';

/** One parsed JSON log line. */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface CapturedLogs<L = LogLine> {
  logger: Logger;
  /** Every complete JSON line so far, parsed, in order (empty for terminal output). */
  lines: L[];
  /** Everything written so far, as text. */
  text(): string;
}

export interface CaptureOptions {
  /** Build the logger as the server does (`createLogger`: secrets masked) instead of plain pino. */
  server?: boolean;
  /** With `server`: the human-readable terminal format instead of JSON lines. */
  tty?: boolean;
}

/** A logger whose output the test reads back: a real pino logger writing into memory. */
export function captureLogs<L = LogLine>(level = 'info', options: CaptureOptions = {}): CapturedLogs<L> {
  const lines: L[] = [];
  let text = '';
  let pending = '';
  const json = !options.tty;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const piece = chunk.toString('utf8');
      text += piece;
      if (json) {
        pending += piece;
        const complete = pending.split('\n');
        pending = complete.pop()!;
        for (const line of complete) if (line.trim()) lines.push(JSON.parse(line) as L);
      }
      done();
    },
  });
  const logger = options.server
    ? createLogger(level, { tty: options.tty ?? false, destination: sink })
    : pino({ level }, sink);
  return { logger, lines, text: () => text };
}
