import { z } from 'zod';
import { canonicalListText } from '../../firewall/addresses.ts';
import { FAIL2BAN_DEFAULTS } from '../../firewall/fail2ban-settings.ts';
import { field } from '../fields.ts';
import type { ResourceDeclaration } from '../types.ts';

/** Intrusion-ban rules (ARCHITECTURE "fail2ban shape"); unknown fields are ignored and never echoed. */
export const fail2banDeclaration: ResourceDeclaration = {
  name: 'fail2ban',
  description: 'Intrusion-ban rules: failures allowed (maxretry) within findtime seconds before a bantime-second ban, and the whitelist.',
  processor: 'Fail2BanManagementProcessor',
  kind: 'singleton',
  security: { permission: 'Fail2Ban', channels: ['localhost', 'bearer_token'] },
  fields: {
    maxretry: field.integer(z.number().int().min(1).max(100), { default: FAIL2BAN_DEFAULTS.maxretry, description: 'Failures (1-100) that trigger a ban.' }),
    bantime: field.integer(z.number().int().min(60), { default: FAIL2BAN_DEFAULTS.bantime, description: 'Ban length in seconds (at least 60).' }),
    findtime: field.integer(z.number().int().min(60), { default: FAIL2BAN_DEFAULTS.findtime, description: 'Window in seconds in which failures are counted (at least 60).' }),
    whitelist: field.text(z.string().max(10_000), {
      // Stored canonical (IPv4-mapped IPv6 unwrapped, IPv6 compressed), separators as written.
      sanitize: (value) => (typeof value === 'string' ? canonicalListText(value.trim()) : value),
      default: FAIL2BAN_DEFAULTS.whitelist,
      description: 'Addresses or CIDRs never banned, separated by spaces or commas; also published on /v1/whitelist.',
    }),
    PBXFirewallMaxReqSec: field.integer(z.number().int().min(1).max(100_000), {
      default: FAIL2BAN_DEFAULTS.PBXFirewallMaxReqSec,
      description: 'Requests per second allowed from one address.',
    }),
  },
  operations: ['getRecord', 'update', 'patch'],
};
