export { createBouncerExport } from './bouncer-export.ts';
export type { BouncerExport, JsonAnswer } from './bouncer-export.ts';
export { BouncerHosts } from './bouncer-hosts.ts';
export { CursorStore, REPEAT_POLLS } from './cursor-store.ts';
export { SILENT_AFTER_MS, deliveryLookup, scenarioOfBan } from './delivery.ts';
export type { Delivery } from './delivery.ts';
export { bouncerKeyRows, hostsSeenSince } from './bouncer-keys.ts';
export { hostRowsBySeen, openRejectionRows } from './bouncer-hosts.ts';
export { keyResyncs, requestResync } from './key-resyncs.ts';
