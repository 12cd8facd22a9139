import type { Choice } from '../../../components/ChoiceSelect.tsx';
import { CUSTOM_CACHE_RETENTION, CUSTOM_UPDATE_FREQUENCY, EXPAND_LIMIT } from '../model/bouncer-config.ts';
import type { BouncerSetup } from '../api/types.ts';

/** What a new key is for: a firewall bouncer, a router feed, or paths chosen one by one. */
export type Preset = 'bouncer' | 'router' | 'custom';

/** The bouncer and its firewall backend, chosen before the key exists: nftables keys get ranges expanded. */
export const BACKENDS: readonly Choice<BouncerSetup>[] = [
  {
    value: 'iptables',
    label: 'iptables + ipset (recommended)',
    description: 'Blocked networks of any size are enforced.',
  },
  {
    value: 'nftables',
    label: 'nftables',
    description:
      `The bouncer's nftables mode cannot hold networks: this key receives blocked networks up to ` +
      `${EXPAND_LIMIT.ipv4} (IPv4) and ${EXPAND_LIMIT.ipv6} (IPv6) expanded into single ` +
      `addresses. Wider networks are only enforced in iptables mode.`,
  },
  {
    value: 'custom-bouncer',
    label: 'crowdsec-custom-bouncer (your script)',
    description:
      `Runs a script once per ban and unban. Polls every ${CUSTOM_UPDATE_FREQUENCY} and remembers ` +
      `applied bans for ${CUSTOM_CACHE_RETENTION}.`,
  },
];

/** What the key may reach: the bouncer's export, the router feed, or paths chosen one by one. */
export const PRESETS: readonly Choice<Preset>[] = [
  {
    value: 'bouncer',
    label: 'Firewall bouncer: read-only firewall export',
    description: 'Only /api/v3/firewall-bouncer (decision stream and whitelist), read-only.',
  },
  {
    value: 'router',
    label: 'Router feed: blocklist for routers and firewalls',
    description:
      'Read-only blocklist feed for MikroTik, pfSense/OPNsense URL tables, F5 or Juniper (no ' +
      'CrowdSec software needed).',
  },
  { value: 'custom', label: 'Custom', description: 'Choose the API paths the key may read or write.' },
];
