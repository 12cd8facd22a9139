/** An API key's grant on one path of `allowed_paths`: write includes read. */
export type PathPermission = 'read' | 'write';

/** Operation levels: ADMIN includes WRITE includes READ; SENSITIVE includes READ. */
export const ACCESS_LEVELS = ['READ', 'WRITE', 'ADMIN', 'SENSITIVE'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** An API key's state: disabled and expired keys get 401. */
export const KEY_STATUSES = ['active', 'disabled', 'expired'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** What a key is for: the firewall bouncer in either mode, the custom bouncer, or a router fetching the blocklist feed. */
export const BOUNCER_SETUPS = ['iptables', 'nftables', 'custom-bouncer', 'router-feed'] as const;
export type BouncerSetup = (typeof BOUNCER_SETUPS)[number];
