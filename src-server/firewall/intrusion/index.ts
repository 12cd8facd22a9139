export { BAN_PRESETS, PRESET_CHOICES, presetOf, ruleFor, slowRuleFor } from './ban-policy.ts';
export type { BanPresetName } from './ban-policy.ts';
export { isBannedAddress, liftHttpBan } from './http-bans.ts';
export { IntrusionDetector } from './intrusion-detector.ts';
export { RequestRateCounter } from './request-rate.ts';
export { NeighbourhoodEscalation } from './neighbourhood-escalation.ts';
export type { ProtectedCheck } from './neighbourhood-escalation.ts';
export {
  AccountFlags,
  NO_ACCOUNT,
  clearAccountFlags,
  flagText,
  readAccountFlags,
  writeAccountFlag,
} from './account-flags.ts';
export type { PhoneGuard } from './intrusion-detector.ts';
