// The labels the settings forms give each field, so that an import preview reads as the forms do ("Failures before
// a ban: 7 → 10", not "maxretry: 7 → 10"). A field missing here is shown by its name.
export const FIELD_LABELS: Record<string, Record<string, string>> = {
  fail2ban: {
    preset: 'Preset',
    maxretry: 'Failures before a ban',
    findtime: 'Counting window',
    bantime: 'Ban duration',
    categories: 'Per-service rules',
    whitelist: 'Whitelist',
    whitelistEntries: 'Whitelist',
    PBXFirewallMaxReqSec: 'Max requests per second',
    bantimeIncrement: 'Ban repeat offenders longer',
    bantimeFactor: 'Factor',
    bantimeMultipliers: 'Multipliers',
    bantimeMaxtime: 'Longest ban',
    bantimeRndtime: 'Random extra time',
    bantimeOveralljails: 'Count bans of every service',
    ipv6ByPrefix: 'Count and ban IPv6 by prefix',
    ipv6Prefix: 'IPv6 prefix length',
    escalation: 'Ban the whole subnet when several of its addresses are banned',
    escalationBans: 'Banned addresses that trigger it',
    escalationWindow: 'Within',
    escalationIpv4Prefix: 'IPv4 subnet size (prefix)',
    escalationIpv6Prefix: 'IPv6 subnet size (prefix)',
  },
  generalSettings: {
    APIQueueMaxLength: 'Queue length',
    APIRequestTTL: 'Request age limit',
    banHistoryRetentionDays: 'Keep ban history for',
    auditRetentionDays: 'Keep audit log for',
  },
  ami: {
    enabled: 'Connect to the Asterisk manager',
    host: 'Host',
    port: 'Port',
    username: 'User',
    secret: 'Password',
  },
  crowdsecLink: {
    enabled: 'Share bans through a CrowdSec LAPI',
    url: 'LAPI URL',
    siteName: "This site's name",
    pushEnabled: "Push this PBX's bans",
    machineLogin: 'Machine login',
    machinePassword: 'Machine password',
    shareCategories: 'Shared services',
    shareManual: 'Manual bans',
    shareFilters: 'Network filter blocks',
    pullEnabled: "Pull the LAPI's decisions",
    bouncerKey: 'Bouncer key',
    pullIntervalSeconds: 'Poll every (seconds)',
    republish: "Also publish pulled decisions to this PBX's bouncers and feeds",
  },
};

/** A field's form label in a section of the backup; its name when it has none. */
export const fieldLabel = (section: string, field: string) => FIELD_LABELS[section]?.[field] ?? field;
