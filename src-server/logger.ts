import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

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
  if (tty) {
    // One line per event: the fields follow the message on the same line instead of a block below it.
    return pino(
      { level },
      pretty({ destination: options.destination ?? 2, colorize: options.destination === undefined, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true }),
    );
  }
  return pino({ level }, options.destination ?? pino.destination({ dest: 2, sync: false }));
}
