import { settingsResource } from '../../../lib/settings-resource.ts';
import { effectiveWhitelistKey } from './get-effective-whitelist.ts';

export interface Fail2banSettings {
  maxretry: number;
  bantime: number;
  findtime: number;
  /** IPs or CIDRs separated by spaces or commas. */
  whitelist: string;
  PBXFirewallMaxReqSec: number;
}

/** The server's bounds, shown beside the fields (the server enforces them; the form never clamps). */
export const FAIL2BAN_BOUNDS = {
  maxretry: { min: 1, max: 100 },
  findtime: { min: 60, max: 604_800 },
  bantime: { min: 60, max: 2_147_483 },
  PBXFirewallMaxReqSec: { min: 1, max: 100_000 },
} as const;

/** The `fail2ban` singleton: ban thresholds and the operator whitelist, which bouncers get with the trusted filters. */
export const fail2banSettings = settingsResource<Fail2banSettings>({ path: 'fail2ban', queryKey: ['settings', 'fail2ban'], alsoInvalidates: [effectiveWhitelistKey] });

export const fail2banKey = fail2banSettings.queryKey;
export const useFail2ban = fail2banSettings.useSettings;
export const useUpdateFail2ban = fail2banSettings.useUpdateSettings;
