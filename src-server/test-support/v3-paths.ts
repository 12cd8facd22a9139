/** The v3 collection paths the server tests call, written once. */
export const FIREWALL = '/pbxcore/api/v3/firewall';
export const FAIL2BAN = '/pbxcore/api/v3/fail2ban';
export const EXT = '/pbxcore/api/v3/extensions';
export const KEYS = '/pbxcore/api/v3/api-keys';
