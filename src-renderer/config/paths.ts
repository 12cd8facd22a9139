/** Every console route, parsed and built in one place. */
export const paths = {
  dashboard: '/',
  apiKeys: '/api-keys',
  networkFilters: '/network-filters',
  whitelist: '/whitelist',
  bans: '/bans',
  banHistory: '/bans/history',
  peers: '/peers',
  peer: (id: string) => `/peers/${encodeURIComponent(id)}`,
  settings: '/settings',
  audit: '/audit',
  notifications: '/notifications',
} as const;

/** Base of the v3 API on the same origin as the console. */
export const API_BASE = '/pbxcore/api/v3/';
