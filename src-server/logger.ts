import pino, { type Logger, type LoggerOptions as PinoOptions } from 'pino';
import pretty from 'pino-pretty';
import { maskSecretsDeep } from './storage/secret-mask.ts';

/** What a log line shows instead of a secret-named member, at any depth of its object. */
export const REDACTED = '[redacted]';

export interface LoggerOptions {
  /** Whether stderr is a terminal; read from process.stderr when absent. */
  tty?: boolean;
  /** Where lines go (tests); stderr when absent. */
  destination?: NodeJS.WritableStream;
}

/**
 * The server's logger, on stderr: human-readable lines (pino-pretty, colours) when stderr is a
 * terminal, one JSON object per line otherwise (a service manager, a file, a log shipper).
 */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const tty = options.tty ?? process.stderr.isTTY === true;
  // Every line's object is walked: a password, key or token never reaches the log, however deep.
  const base: PinoOptions = {
    level,
    formatters: { log: (object) => maskSecretsDeep(object, new Set(), REDACTED) as Record<string, unknown> },
  };
  if (tty) {
    // One line per event: the fields follow the message on the same line instead of a block below it.
    return pino(
      base,
      pretty({
        destination: options.destination ?? 2,
        colorize: options.destination === undefined,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
        singleLine: true,
      }),
    );
  }
  return pino(base, options.destination ?? pino.destination({ dest: 2, sync: false }));
}
