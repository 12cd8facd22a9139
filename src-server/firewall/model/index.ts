export {
  FIXED_NEVER_BANNED,
  canonicalListText,
  cidrsOverlap,
  coversHostLoopback,
  isCatchAll,
  isHostLoopback,
  normalizeAddress,
  normalizeCidrText,
  parseStrictCidr,
  splitList,
  unblockableReason,
} from './addresses.ts';
export {
  BAN_CATEGORIES,
  MANUAL_DURATION,
  MANUAL_DURATION_SECONDS,
  MANUAL_SCENARIO,
  MAX_DECISION_SECONDS,
  decisionId,
  decisionParts,
  deletedDecisionJson,
  identityOf,
  originOf,
  originOfKey,
  scopeOf,
  secondsLeft,
} from './decisions.ts';
export type { BanCategory, BanKind, DecisionKey, DecisionParts, Scenario } from './decisions.ts';
