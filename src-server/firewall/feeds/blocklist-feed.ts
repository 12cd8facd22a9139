import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Clock } from '../../clock.ts';
import type { BanStore } from '../bans/index.ts';
import { blocklistEntries, protectedCidrs, type BlocklistEntry, type BlocklistOptions } from './blocklist.ts';
import { renderBlocklist } from './blocklist-formats.ts';
import type { DecisionSnapshotCache } from '../snapshot/index.ts';
import type { FirewallState } from '../filters/index.ts';
import { mikrotikAnswer, type FeedCursors, type MikrotikFetch } from './blocklist-deltas.ts';
import { asFeedMembers, type KeyView } from './key-view.ts';

const DAY_MS = 86_400_000;
const gzipAsync = promisify(gzip);

/** A rendered feed, reused while nothing it depends on changed. */
export interface RenderedFeed {
  stamp: string;
  body: Buffer;
  etag: string;
  gzipped?: Promise<Buffer>;
}

const optionsKey = (o: BlocklistOptions) =>
  `${o.format}|${o.ipv4only ? 4 : ''}${o.ipv6only ? 6 : ''}|${o.origin?.toLowerCase() ?? ''}|${o.listname}`;
const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 27);

/** The gzip form of a rendered feed, compressed off the event loop once per rendered text feed. */
export const gzippedFeed = (rendered: RenderedFeed): Promise<Buffer> => (rendered.gzipped ??= gzipAsync(rendered.body));

/**
 * The router feed's renderer: its entries computed once per change and shared by every format,
 * its text feeds cached per options until the snapshot, the filters or the bans change.
 */
export function blocklistFeed(parts: {
  state: FirewallState;
  bans: BanStore;
  snapshots: DecisionSnapshotCache;
  clock: Clock;
  feedCursors: FeedCursors;
}): (options: BlocklistOptions, fetch?: MikrotikFetch, own?: KeyView) => RenderedFeed {
  const cache = new Map<string, RenderedFeed>();
  const lists = new Map<string, { stamp: string; entries: BlocklistEntry[] }>();

  /** The feed's entries for a family and origin, computed once per change and shared by every format. */
  function entriesFor(options: BlocklistOptions, stamp: string, now: number, own?: KeyView): BlocklistEntry[] {
    const key = `${options.ipv4only ? 4 : ''}${options.ipv6only ? 6 : ''}|${options.origin?.toLowerCase() ?? ''}|${own?.name ?? ''}`;
    const known = lists.get(key);
    if (known?.stamp === stamp) return known.entries;
    const whitelist = protectedCidrs(parts.state.filters, parts.state.settings, now);
    // The members the snapshot was just built from: exactly what the stream publishes now.
    // A capped or aggregating key: its own view (`entriesForKey`), the same set its stream would carry.
    const members = own ? asFeedMembers(own) : parts.snapshots.published.plain.values();
    const entries = blocklistEntries(members, whitelist, options, now);
    if (lists.size > 16) lists.clear();
    lists.set(key, { stamp, entries });
    return entries;
  }

  /**
   * The feed for these options now. A text format depends only on which decisions are published,
   * so it is rendered once per change and its ETag is its hash. A MikroTik script carries each
   * entry's time left, so it is rendered for every request, and its (weak) ETag names the state it
   * was made from: a router holding it has timeouts still counting down correctly. The day is part
   * of it so a filter entry's long timeout is renewed at least daily. A key's fetch (`fetch`) gets
   * a delta from its cursor when it has a known one (blocklist-deltas.ts).
   */
  return (options, fetch, own) => {
    const snapshot = parts.snapshots.get();
    const now = parts.clock.now();
    const stamp = `${snapshot.version}:${parts.state.revision}:${parts.bans.revision}`;
    const key = `${optionsKey(options)}|${own?.name ?? ''}`;
    const known = cache.get(key);
    if (options.format !== 'mikrotik' && known?.stamp === stamp) return known;
    const entries = entriesFor(options, stamp, now, own);
    const keyed =
      options.format === 'mikrotik' && fetch
        ? mikrotikAnswer(parts.feedCursors, fetch, options, entries, now)
        : undefined;
    const text = keyed?.text ?? renderBlocklist(entries, options, now);
    const etag =
      options.format === 'mikrotik'
        ? `W/"${hashOf(`${key}|${stamp}|${Math.floor(now / DAY_MS)}|${fetch?.since ?? ''}|${keyed?.token ?? ''}`)}"`
        : `"${hashOf(text)}"`;
    const rendered: RenderedFeed = { stamp, body: Buffer.from(text), etag };
    if (options.format !== 'mikrotik') {
      if (cache.size > 64) cache.clear();
      cache.set(key, rendered);
    }
    return rendered;
  };
}
