/**
 * crowdsec-firewall-bouncer's firewall backends. `iptables` keeps ranges in an ipset (`nethash`),
 * so a blocked network of any size is enforced; `nftables` (package version 0.0.25) stores only
 * single addresses, so its key has the server expand ranges (see EXPAND_LIMIT).
 */
export type FirewallBackend = 'iptables' | 'nftables';

/** The client a key's configuration is written for: crowdsec-firewall-bouncer, the custom bouncer, or curl. */
export type BouncerClient = 'firewall' | 'custom' | 'curl';

/** Where the configurations expect this server's certificate (PEM) on the bouncer host. */
export const CA_CERT_PATH = '/etc/crowdsec/bouncers/pbx.pem';

/** Where the custom bouncer's Debian package reads its configuration (its unit passes -c with it). */
export const CUSTOM_BOUNCER_CONFIG_PATH = '/etc/crowdsec/bouncers/crowdsec-custom-bouncer.yaml';

/** The custom bouncer's poll interval, and how long it remembers a decision it already ran the script for. */
export const CUSTOM_UPDATE_FREQUENCY = '10s';
export const CUSTOM_CACHE_RETENTION = '1h';

/**
 * How the client checks the server over HTTPS: `pinned` when this server's certificate is known (it
 * is saved as CA_CERT_PATH), else no check. Nothing to do over HTTP.
 */
export interface TlsTrust {
  pinned: boolean;
}

/** The TLS lines of a bouncer YAML for `apiUrl`. */
function tlsLines(apiUrl: string, trust: TlsTrust): string[] {
  if (!apiUrl.startsWith('https:')) return ['insecure_skip_verify: false'];
  if (trust.pinned)
    return [
      `# This server's certificate, as downloaded from the key dialog (check its SHA-256 fingerprint).`,
      `ca_cert_path: ${CA_CERT_PATH}`,
      'insecure_skip_verify: false',
    ];
  return [
    '# The certificate is not known here: nothing is checked. Prefer ca_cert_path with its PEM.',
    'insecure_skip_verify: true',
  ];
}

/** The lines both bouncers share: logging to files, then where the server is, the key and the TLS lines. */
const logAndServerLines = (apiUrl: string, apiKey: string, trust: TlsTrust) => [
  'log_mode: file',
  'log_dir: /var/log/',
  'log_level: info',
  `api_url: ${apiUrl}`,
  `api_key: ${apiKey}`,
  ...tlsLines(apiUrl, trust),
];

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
export function bouncerYaml(
  apiUrl: string,
  apiKey: string,
  backend: FirewallBackend,
  trust: TlsTrust = { pinned: false },
): string {
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
    ...logAndServerLines(apiUrl, apiKey, trust),
    'disable_ipv6: false',
    'deny_action: DROP',
    'deny_log: false',
    'supported_decisions_types:',
    '  - ban',
    ...BACKEND_SECTION[backend],
    '',
  ].join('\n');
}

/**
 * A ready crowdsec-custom-bouncer configuration (key names of the Debian package's own file): the
 * script at bin_path is run as `add|del <value> <seconds> <scenario> <json>` for each decision.
 */
export function customBouncerYaml(apiUrl: string, apiKey: string, trust: TlsTrust = { pinned: false }): string {
  return [
    '# crowdsec-custom-bouncer for the PBX firewall export.',
    '# Debian: save it as',
    `#   ${CUSTOM_BOUNCER_CONFIG_PATH}`,
    '# with bin_path set to your script, then run',
    '#   systemctl restart crowdsec-custom-bouncer',
    '# Script arguments: add|del <value> <seconds> <scenario> <json>',
    'bin_path: /usr/local/bin/pbx-ban.sh',
    'feed_via_stdin: false',
    'total_retries: 0',
    'scenarios_containing: []',
    'scenarios_not_containing: []',
    'origins: []',
    'piddir: /var/run/',
    `update_frequency: ${CUSTOM_UPDATE_FREQUENCY}`,
    '# Every active ban comes back in each poll; the bouncer re-runs the',
    '# script for one it has not seen within cache_retention_duration.',
    '# Far above update_frequency, the script runs once per ban, not on',
    '# every poll (a lifted ban still gets its del at once).',
    `cache_retention_duration: ${CUSTOM_CACHE_RETENTION}`,
    '# Sends systemd the ready signal its unit (Type=notify) waits for.',
    'daemonize: true',
    ...logAndServerLines(apiUrl, apiKey, trust),
    'prometheus:',
    '  enabled: false',
    '',
  ].join('\n');
}

/** Single-quoted for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** One curl line that asks for the whole decision stream with this key: the quickest check from the bouncer host. */
export function curlCheck(apiUrl: string, apiKey: string, trust: TlsTrust = { pinned: false }): string {
  const tls = !apiUrl.startsWith('https:') ? '' : trust.pinned ? `--cacert ${CA_CERT_PATH} ` : '--insecure ';
  const base = apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`;
  return `curl -sS ${tls}-H ${shellQuote(`X-Api-Key: ${apiKey}`)} ${shellQuote(`${base}v1/decisions/stream?startup=true`)}`;
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
