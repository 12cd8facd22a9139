import { z } from 'zod';
import { boundedInteger, rangeText, SETTING_BOUNDS } from '../../config/setting-bounds.ts';
import { canonicalListText } from '../../firewall/addresses.ts';
import { FAIL2BAN_DEFAULTS } from '../../firewall/fail2ban-settings.ts';
import { field } from '../fields.ts';
import type { ResourceDeclaration } from '../types.ts';

const bounds = SETTING_BOUNDS.fail2ban;

/**
 * Intrusion-ban rules (ARCHITECTURE "fail2ban shape"); unknown fields are ignored and never echoed.
 * Bounds: config/setting-bounds.ts. Whitelist entries are stored canonical (IPv4-mapped IPv6 unwrapped).
 */
export const fail2banDeclaration: ResourceDeclaration = {
  name: 'fail2ban',
  description: 'Intrusion-ban rules: failures allowed (maxretry) within findtime seconds before a bantime-second ban, and the whitelist.',
  processor: 'Fail2BanManagementProcessor',
  kind: 'singleton',
  security: { permission: 'Fail2Ban', channels: ['localhost', 'bearer_token'] },
  fields: {
    maxretry: field.integer(boundedInteger(bounds.maxretry), {
      default: FAIL2BAN_DEFAULTS.maxretry,
      description: `Failures (${rangeText(bounds.maxretry)}) that trigger a ban.`,
    }),
    bantime: field.integer(boundedInteger(bounds.bantime), {
      default: FAIL2BAN_DEFAULTS.bantime,
      description: `Ban length in seconds (${rangeText(bounds.bantime)}; the maximum is ipset's largest timeout).`,
    }),
    findtime: field.integer(boundedInteger(bounds.findtime), {
      default: FAIL2BAN_DEFAULTS.findtime,
      description: `Window in seconds in which failures are counted (${rangeText(bounds.findtime)}).`,
    }),
    whitelist: field.text(z.string().max(10_000), {
      // Stored canonical (IPv4-mapped IPv6 unwrapped, IPv6 compressed), separators as written.
      sanitize: (value) => (typeof value === 'string' ? canonicalListText(value.trim()) : value),
      default: FAIL2BAN_DEFAULTS.whitelist,
      description: 'Addresses or CIDRs never banned, separated by spaces or commas; also published on /v1/whitelist.',
    }),
    PBXFirewallMaxReqSec: field.integer(boundedInteger(bounds.PBXFirewallMaxReqSec), {
      default: FAIL2BAN_DEFAULTS.PBXFirewallMaxReqSec,
      description: `Requests per second allowed from one address (${rangeText(bounds.PBXFirewallMaxReqSec)}).`,
    }),
  },
  operations: ['getRecord', 'update', 'patch'],
};
