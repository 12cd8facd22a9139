import { StringDecoder } from 'node:string_decoder';

/** One AMI message: `Key: Value` lines. Keys keep Asterisk's spelling; a repeated key keeps its first value. */
export type AmiMessage = Record<string, string>;

/** A message larger than this without its blank-line terminator is skipped up to its end (junk, never parsed). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** What the frame reader hands back for each chunk of bytes. */
export type AmiFrame =
  | { kind: 'banner'; text: string }
  | { kind: 'message'; message: AmiMessage }
  /** A block that is not `Key: Value` lines, or one over MAX_MESSAGE_BYTES; reported, never thrown. */
  | { kind: 'malformed'; text: string };

/** The text of the malformed frame reported for a block over MAX_MESSAGE_BYTES. */
export const OVERSIZED_TEXT = `message over ${MAX_MESSAGE_BYTES} bytes, skipped to its end`;

const BANNER_PATTERN = /^Asterisk Call Manager\/\d+(\.\d+)*/;

/** Whether the first line a server sent is an Asterisk manager banner. */
export function isAmiBanner(line: string): boolean {
  return BANNER_PATTERN.test(line);
}

/**
 * Splits the AMI byte stream into frames. The first line is the banner (`\r\n`-terminated);
 * after it, each message is a block of `Key: Value` lines ended by an empty line. Bare `\n`
 * line ends are tolerated. A block over MAX_MESSAGE_BYTES is reported once and its bytes dropped
 * up to its terminator, so one hostile event costs neither the link nor the events after it.
 * Throws only when no banner line arrives within MAX_MESSAGE_BYTES (not an AMI server).
 */
export class AmiFrameReader {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';
  private bannerSeen: boolean;
  /** Inside an oversized block: bytes are dropped until its blank-line terminator. */
  private skipping = false;
  /** Where the search for a terminator resumes (bytes before it were searched already). */
  private searchFrom = 0;

  /** `expectBanner: false` reads a client's stream (servers receive no banner). */
  constructor(options: { expectBanner?: boolean } = {}) {
    this.bannerSeen = options.expectBanner === false;
  }

  /** Feeds bytes; returns the frames completed by them. Throws only when the banner line exceeds MAX_MESSAGE_BYTES. */
  push(chunk: Buffer | string): AmiFrame[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const frames: AmiFrame[] = [];
    if (!this.bannerSeen) {
      const end = this.buffer.indexOf('\n');
      if (end < 0) {
        if (this.buffer.length <= MAX_MESSAGE_BYTES) return frames;
        this.buffer = '';
        throw new Error(`AMI banner larger than ${MAX_MESSAGE_BYTES} bytes.`);
      }
      frames.push({ kind: 'banner', text: this.buffer.slice(0, end).replace(/\r$/, '') });
      this.buffer = this.buffer.slice(end + 1);
      this.bannerSeen = true;
    }
    const terminator = /\r?\n\r?\n/g;
    for (;;) {
      // A terminator may straddle chunks: resume 3 characters before the end of what was searched.
      terminator.lastIndex = Math.max(0, this.searchFrom - 3);
      const match = terminator.exec(this.buffer);
      if (!match) break;
      const block = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.searchFrom = 0;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (block.trim() === '') continue; // stray blank lines between messages
      frames.push(parseBlock(block));
    }
    this.searchFrom = this.buffer.length;
    if (this.buffer.length > MAX_MESSAGE_BYTES || (this.skipping && this.buffer.length > 3)) {
      if (!this.skipping) frames.push({ kind: 'malformed', text: OVERSIZED_TEXT });
      this.skipping = true;
      this.buffer = this.buffer.slice(-3); // enough to see a terminator split across chunks
      this.searchFrom = this.buffer.length;
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
