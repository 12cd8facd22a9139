import { rangeText, SETTING_BOUNDS } from '../../config/setting-bounds.ts';
import { ESCALATION_FIELDS } from '../../firewall/filters/index.ts';
import { field } from '../../resource-kit/fields.ts';

const bounds = SETTING_BOUNDS.fail2ban;

/** The `fail2ban` declaration's neighbourhood-escalation fields (spread into it). */
export const escalationDeclarationFields = {
  escalation: field.boolean({
    default: ESCALATION_FIELDS.escalation.default,
    description:
      'Neighbourhood escalation: escalationBans single bans of one category within escalationWindow seconds ' +
      'inside one /escalationIpv4Prefix (IPv4) or /escalationIpv6Prefix (IPv6) become one Range ban that ' +
      'replaces them. Never over a whitelisted, trusted, loopback or protected address.',
  }),
  escalationBans: field.integer(ESCALATION_FIELDS.escalationBans.schema, {
    default: ESCALATION_FIELDS.escalationBans.default,
    description: `Distinct banned addresses of one range (${rangeText(bounds.escalationBans)}) that escalate it.`,
  }),
  escalationWindow: field.integer(ESCALATION_FIELDS.escalationWindow.schema, {
    default: ESCALATION_FIELDS.escalationWindow.default,
    description: `Window in seconds (${rangeText(bounds.escalationWindow)}) in which those bans started.`,
  }),
  escalationIpv4Prefix: field.integer(ESCALATION_FIELDS.escalationIpv4Prefix.schema, {
    default: ESCALATION_FIELDS.escalationIpv4Prefix.default,
    description: `Prefix length of an escalated IPv4 range (${rangeText(bounds.escalationIpv4Prefix)}).`,
  }),
  escalationIpv6Prefix: field.integer(ESCALATION_FIELDS.escalationIpv6Prefix.schema, {
    default: ESCALATION_FIELDS.escalationIpv6Prefix.default,
    description: `Prefix length of an escalated IPv6 range (${rangeText(bounds.escalationIpv6Prefix)}).`,
  }),
};
