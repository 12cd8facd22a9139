import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import type { DecisionSnapshot } from './decision-snapshot.ts';

const gzipAsync = promisify(gzip);

/** Below this size an answer goes uncompressed: gzip would cost more than the bytes it saves. */
export const GZIP_ABOVE_BYTES = 16 * 1024;

const compressed = new WeakMap<DecisionSnapshot, Promise<Buffer>>();

/**
 * The gzip of `prefix + snapshot`, made once per snapshot off the event loop (zlib's thread pool)
 * and shared by every poll that accepts gzip. A poll appends its own small gzip member (its
 * `deleted`): concatenated gzip members are one valid stream (RFC 1952), so nothing shared is
 * compressed twice.
 */
export function compressedSnapshot(snapshot: DecisionSnapshot, prefix: Buffer): Promise<Buffer> {
  let pending = compressed.get(snapshot);
  if (!pending) {
    pending = gzipAsync(Buffer.concat([prefix, snapshot.json]), { level: 1 });
    compressed.set(snapshot, pending);
  }
  return pending;
}

/** A small per-poll tail as its own gzip member. */
export function compressedTail(text: string): Buffer {
  return gzipSync(Buffer.from(text), { level: 1 });
}
