export { FAIL2BAN_FIELDS, MAX_MULTIPLIERS } from './fail2ban-fields.ts';
export type { Fail2banSettings } from './fail2ban-fields.ts';
export {
  FAIL2BAN_DEFAULTS,
  FAIL2BAN_SETTING_KEY,
  entryInForce,
  fail2banFromStored,
  readFail2ban,
  whitelistRanges,
} from './fail2ban-settings.ts';
export type { BanRule, SlowRule } from './fail2ban-settings.ts';
export {
  insertFilter,
  loadFilter,
  loadFilters,
  removeFilter,
  replaceFilters,
  rowToFilter,
  updateFilter,
} from './filter-store.ts';
export type { FilterRow } from './filter-store.ts';
export {
  DEFAULT_DENY,
  FILTER_CATEGORIES,
  RULE_CATEGORIES,
  defaultRules,
  denyRanges,
  filterBanValues,
  filterLabel,
  manualBanValues,
  trustedRanges,
} from './filters.ts';
export type { FilterCategory, FilterRules, NetworkFilter } from './filters.ts';
export { FirewallState } from './firewall-state.ts';
export { NeverBannedSet, carvedNote, describeHoles, refusalText } from './never-banned.ts';
export type { BanScreen } from './never-banned.ts';
export { composeWhitelist } from './whitelist.ts';
export { ESCALATION_FIELDS } from './escalation-fields.ts';
export {
  RegisteredAddresses,
  describeCutOff,
  phoneList,
  protectionText,
  writeContacts,
} from './registered-addresses.ts';
export type { ProtectedAddress, ProtectionSettings, RegisteredContact } from './registered-addresses.ts';
