export { blocklistFeed, gzippedFeed } from './blocklist-feed.ts';
export type { RenderedFeed } from './blocklist-feed.ts';
export { parseBlocklistQuery } from './blocklist.ts';
export { FeedCursors } from './blocklist-deltas.ts';
