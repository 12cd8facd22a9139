export {
  activeBansThatMayHold,
  activeBansOfKinds,
  endedBansThatMayHold,
  activeCategoriesOf,
  latestEndsInForce,
  DEFAULT_BAN_HISTORY_DAYS,
  MANUAL_BAN_BOUNDS,
  PERMANENT_UNTIL,
  activeBanCounts,
  activeBansPage,
  addManualBan,
  banHistory,
  banLog,
  liftBans,
  listActiveBans,
  parseBanDuration,
  pruneBanHistory,
  searchCondition,
} from './ban-queries.ts';
export type { ActiveBanFilter, BannedIp, EndedBan, InForceBan } from './ban-queries.ts';
export { BanStore, banDecisionKey } from './ban-store.ts';
export type { ActiveBan, BanChange } from './ban-store.ts';
export { coverAuditChanges, coverEvents, coverMessages, liftBansCoveredBy } from './covered-bans.ts';
