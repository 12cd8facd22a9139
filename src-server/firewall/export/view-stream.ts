import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Clock } from '../../clock.ts';
import type { BouncerHosts } from './bouncer-hosts.ts';
import { GZIP_ABOVE_BYTES } from '../snapshot/index.ts';
import type { CursorStore } from './cursor-store.ts';
import type { KeyDeliveryState } from './key-delivery-state.ts';
import type { KeyStreams } from './key-stream.ts';
import { renderView, type KeyExportOptions, type KeyViews } from '../feeds/index.ts';

const gzipAsync = promisify(gzip);

/** A stream poll as the view path needs it (a subset of the export's StreamPoll). */
interface ViewPoll {
  keyId: number;
  expandRanges: boolean;
  startup: boolean;
  acceptsGzip: boolean;
  served?: { ip: string; userAgent: string };
}

/** The parts of the export a view answer uses. */
interface ViewParts {
  clock: Clock;
  cursors: CursorStore;
  hosts: BouncerHosts;
  views: KeyViews;
  keyStreams: KeyStreams;
  deliveryState: KeyDeliveryState;
}

/**
 * A capped or aggregating key's stream answer: its own view in `new`, and in `deleted` what left
 * the published set (the shared log) plus what its view dropped (`key-stream.ts`). Built and
 * compressed per poll: only these keys pay for it; the shared snapshot path is untouched.
 */
export async function viewStream(
  parts: ViewParts,
  poll: ViewPoll,
  options: KeyExportOptions & { keyName: string },
): Promise<{ parts: Buffer[]; gzipped: boolean }> {
  const view = parts.views.entriesForKey({ ...options, expandRanges: poll.expandRanges });
  const since = poll.startup ? undefined : parts.cursors.deletedSince(poll.keyId);
  const record = poll.served !== undefined;
  const deleted = parts.keyStreams.deleted(poll.keyId, view, since, poll.startup, record, poll.expandRanges);
  const body = Buffer.from(`{"new":[${renderView(view, parts.clock.now())}],"deleted":[${deleted.join(',')}]}`);
  if (poll.served) {
    const { ip, userAgent } = poll.served;
    parts.cursors.record(poll.keyId, view.version, ip, view.entries.length, deleted.length, poll.startup);
    parts.hosts.polled(poll.keyId, ip, userAgent);
    parts.deliveryState.served(poll.keyId, options.keyName, view);
  }
  if (body.length > GZIP_ABOVE_BYTES && poll.acceptsGzip) return { parts: [await gzipAsync(body)], gzipped: true };
  return { parts: [body], gzipped: false };
}

/** A shared `],"deleted":[…]}` tail with more deletions appended. */
export function withDeleted(tail: string, count: number, more: readonly string[]): { tail: string; count: number } {
  const open = tail.slice(0, -2); // without the closing `]}`
  return { tail: `${open}${open.endsWith('[') ? '' : ','}${more.join(',')}]}`, count: count + more.length };
}
