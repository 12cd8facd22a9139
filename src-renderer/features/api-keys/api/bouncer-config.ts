/** A ready-to-paste crowdsec-firewall-bouncer configuration for this server and key. */
export function bouncerYaml(apiUrl: string, apiKey: string): string {
  return [
    '# /etc/crowdsec/bouncers/crowdsec-firewall-bouncer.yaml',
    'mode: nftables',
    'update_frequency: 10s',
    'log_mode: file',
    'log_dir: /var/log/',
    'log_level: info',
    `api_url: ${apiUrl}`,
    `api_key: ${apiKey}`,
    ...(apiUrl.startsWith('https:') ? ['# The PBX certificate is self-signed: pin or trust it, or skip verification.', 'insecure_skip_verify: true'] : []),
    'disable_ipv6: false',
    'deny_action: DROP',
    'deny_log: false',
    'supported_decisions_types:',
    '  - ban',
    '',
  ].join('\n');
}
