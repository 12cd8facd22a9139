import { StringDecoder } from 'node:string_decoder';

/** One AMI message: `Key: Value` lines. Keys keep Asterisk's spelling; a repeated key keeps its first value. */
export type AmiMessage = Record<string, string>;

/** A message larger than this without its blank-line terminator means a broken or hostile peer. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** What the frame reader hands back for each chunk of bytes. */
export type AmiFrame =
  | { kind: 'banner'; text: string }
  | { kind: 'message'; message: AmiMessage }
  /** A block that is not `Key: Value` lines; reported, never thrown. */
  | { kind: 'malformed'; text: string };

const BANNER_PATTERN = /^Asterisk Call Manager\/\d+(\.\d+)*/;

/** Whether the first line a server sent is an Asterisk manager banner. */
export function isAmiBanner(line: string): boolean {
  return BANNER_PATTERN.test(line);
}

/**
 * Splits the AMI byte stream into frames. The first line is the banner (`\r\n`-terminated);
 * after it, each message is a block of `Key: Value` lines ended by an empty line. Bare `\n`
 * line ends are tolerated. Never throws on content; only an oversized block is an error.
 */
export class AmiFrameReader {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';
  private bannerSeen: boolean;

  /** `expectBanner: false` reads a client's stream (servers receive no banner). */
  constructor(options: { expectBanner?: boolean } = {}) {
    this.bannerSeen = options.expectBanner === false;
  }

  /** Feeds bytes; returns the frames completed by them. Throws only when a block exceeds MAX_MESSAGE_BYTES. */
  push(chunk: Buffer | string): AmiFrame[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const frames: AmiFrame[] = [];
    if (!this.bannerSeen) {
      const end = this.buffer.indexOf('\n');
      if (end < 0) return this.checkSize(frames);
      frames.push({ kind: 'banner', text: this.buffer.slice(0, end).replace(/\r$/, '') });
      this.buffer = this.buffer.slice(end + 1);
      this.bannerSeen = true;
    }
    for (;;) {
      const match = /\r?\n\r?\n/.exec(this.buffer);
      if (!match) break;
      const block = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      if (block.trim() === '') continue; // stray blank lines between messages
      frames.push(parseBlock(block));
    }
    return this.checkSize(frames);
  }

  private checkSize(frames: AmiFrame[]): AmiFrame[] {
    if (this.buffer.length > MAX_MESSAGE_BYTES) {
      this.buffer = '';
      throw new Error(`AMI message larger than ${MAX_MESSAGE_BYTES} bytes without a terminator.`);
    }
    return frames;
  }
}

/** Parses one block of `Key: Value` lines. A block with no valid line at all is malformed. */
export function parseBlock(block: string): AmiFrame {
  const message: AmiMessage = {};
  let fields = 0;
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue; // output of `Response: Follows` and junk lines carry no field
    const key = line.slice(0, colon).trim();
    if (!key || /\s/.test(key)) continue;
    if (!(key in message)) message[key] = line.slice(colon + 1).trim();
    fields++;
  }
  return fields > 0 ? { kind: 'message', message } : { kind: 'malformed', text: block.slice(0, 200) };
}

/** Serialises an action: `Key: Value` lines, CR and LF stripped from values so no field can inject another. */
export function formatAction(fields: Record<string, string | number | undefined>): string {
  let out = '';
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out += `${key}: ${String(value).replace(/[\r\n]+/g, ' ')}\r\n`;
  }
  return `${out}\r\n`;
}
