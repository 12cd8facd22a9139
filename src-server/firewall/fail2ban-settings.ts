import { parseCidr, type Cidr } from '../net/cidr.ts';
import type { Db } from '../storage/database.ts';
import { readSetting } from '../storage/settings.ts';
import { splitList } from './addresses.ts';

/** Settings key of the `fail2ban` singleton. */
export const FAIL2BAN_SETTING_KEY = 'fail2ban';

/** Intrusion-ban rules (ARCHITECTURE "fail2ban shape"). */
export interface Fail2banSettings {
  maxretry: number;
  bantime: number;
  findtime: number;
  whitelist: string;
  PBXFirewallMaxReqSec: number;
}

export const FAIL2BAN_DEFAULTS: Fail2banSettings = {
  maxretry: 20,
  bantime: 600,
  findtime: 600,
  whitelist: '',
  PBXFirewallMaxReqSec: 100,
};

/** Stored values over the defaults; values of the wrong type read as their default. */
export function readFail2ban(db: Db): Fail2banSettings {
  const stored = readSetting<Partial<Record<keyof Fail2banSettings, unknown>>>(db, FAIL2BAN_SETTING_KEY) ?? {};
  const int = (name: 'maxretry' | 'bantime' | 'findtime' | 'PBXFirewallMaxReqSec') =>
    typeof stored[name] === 'number' && Number.isInteger(stored[name]) ? (stored[name] as number) : FAIL2BAN_DEFAULTS[name];
  return {
    maxretry: int('maxretry'),
    bantime: int('bantime'),
    findtime: int('findtime'),
    whitelist: typeof stored.whitelist === 'string' ? stored.whitelist : '',
    PBXFirewallMaxReqSec: int('PBXFirewallMaxReqSec'),
  };
}

/** The fail2ban whitelist as parsed ranges, in the order written. */
export function whitelistRanges(settings: Pick<Fail2banSettings, 'whitelist'>): Array<{ text: string; cidr: Cidr }> {
  const out: Array<{ text: string; cidr: Cidr }> = [];
  for (const text of splitList(settings.whitelist)) {
    const cidr = parseCidr(text);
    if (cidr) out.push({ text, cidr });
  }
  return out;
}
