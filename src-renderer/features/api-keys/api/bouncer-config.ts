/**
 * crowdsec-firewall-bouncer's firewall backends. `iptables` keeps ranges in an ipset (`nethash`),
 * so a blocked network of any size is enforced; `nftables` (package version 0.0.25) stores only
 * single addresses, so its key has the server expand ranges (see EXPAND_LIMIT).
 */
export type FirewallBackend = 'iptables' | 'nftables';

/** What the server expands for nftables-mode keys (`expand_ranges`); wider ranges stay ranges. */
export const EXPAND_LIMIT = { ipv4: '/16', ipv6: '/112' } as const;

/** Where the Debian package reads its operator settings: they override the package's own file. */
export const BOUNCER_CONFIG_PATH = '/etc/crowdsec/bouncers/crowdsec-firewall-bouncer.yaml.local';

/** Seconds between two polls; the SPEC recommends 5 to 10 s. Unblocking takes at most two polls. */
export const UPDATE_FREQUENCY_SECONDS = 5;

const BACKEND_SECTION: Record<FirewallBackend, string[]> = {
  iptables: [
    '# iptables + ipset: blocked networks of any size are enforced.',
    'blacklists_ipv4: crowdsec-blacklists',
    'blacklists_ipv6: crowdsec6-blacklists',
    'ipset_type: nethash',
    'iptables_chains:',
    '  - INPUT',
    '#  - FORWARD',
    '#  - DOCKER-USER',
  ],
  nftables: [
    `# nftables: this key gets blocked networks up to ${EXPAND_LIMIT.ipv4} (IPv4) and`,
    `# ${EXPAND_LIMIT.ipv6} (IPv6) as single addresses; wider ones need iptables mode.`,
    'nftables:',
    '  ipv4:',
    '    enabled: true',
    '    set-only: false',
    '    table: crowdsec',
    '    chain: crowdsec-chain',
    '  ipv6:',
    '    enabled: true',
    '    set-only: false',
    '    table: crowdsec6',
    '    chain: crowdsec6-chain',
  ],
};

/**
 * A ready-to-paste crowdsec-firewall-bouncer configuration for this server and key, with the key
 * names of the Debian package's /etc/crowdsec/bouncers/crowdsec-firewall-bouncer.yaml.
 */
export function bouncerYaml(apiUrl: string, apiKey: string, backend: FirewallBackend): string {
  const https = apiUrl.startsWith('https:');
  return [
    `# crowdsec-firewall-bouncer, ${backend} mode, for the PBX firewall export.`,
    '# Debian: save it as',
    `#   ${BOUNCER_CONFIG_PATH}`,
    "# (read over the package's own file), then run",
    '#   systemctl restart crowdsec-firewall-bouncer',
    `mode: ${backend}`,
    `update_frequency: ${UPDATE_FREQUENCY_SECONDS}s`,
    '# Sends systemd the ready signal its unit (Type=notify) waits for.',
    'daemonize: true',
    'pid_dir: /var/run/',
    'log_mode: file',
    'log_dir: /var/log/',
    'log_level: info',
    `api_url: ${apiUrl}`,
    `api_key: ${apiKey}`,
    ...(https
      ? ['# Self-signed PBX certificate: pin it with ca_cert_path, or skip checks.', 'insecure_skip_verify: true']
      : ['insecure_skip_verify: false']),
    'disable_ipv6: false',
    'deny_action: DROP',
    'deny_log: false',
    'supported_decisions_types:',
    '  - ban',
    ...BACKEND_SECTION[backend],
    '',
  ].join('\n');
}

/** The host as a URL would carry it (IPv6 in brackets, names lower-cased), or null when it is not one. */
function urlHost(host: string): string | null {
  const value = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (!value || /[\s/?#@\\[\]]/.test(value)) return null;
  // URL would read "10.1.2" as 10.1.0.2: a dotted number must be a whole IPv4 address.
  if (/^[\d.]+$/.test(value) && !/^(\d{1,3}\.){3}\d{1,3}$/.test(value)) return null;
  try {
    const parsed = new URL(`http://${value.includes(':') ? `[${value}]` : value}/`);
    return parsed.port === '' ? parsed.hostname : null;
  } catch {
    return null;
  }
}

/** Why a host the operator typed cannot go into api_url, or null when it can. */
export function hostProblem(host: string): string | null {
  if (!host.trim()) return 'Enter the host name or address the bouncer host reaches this server on.';
  return urlHost(host) ? null : 'Enter only a host name or an IP address, without scheme, port or path.';
}

/** `apiUrl` (scheme, port and path kept) pointed at `host`; null when `host` is not a valid host. */
export function withHost(apiUrl: string, host: string): string | null {
  const hostname = urlHost(host);
  if (!hostname) return null;
  const url = new URL(apiUrl);
  url.hostname = hostname;
  return url.toString();
}
