import { settingsResource } from '../../../lib/settings-resource.ts';

export interface GeneralSettings {
  APIQueueMaxLength: number;
  APIRequestTTL: number;
  /** Days the ban history keeps a ban after it ended. */
  banHistoryRetentionDays: number;
  /** Days the audit log keeps an entry. */
  auditRetentionDays: number;
}

/** The server's bounds (src-server/config/setting-bounds.ts), shown beside the fields; the server enforces them. */
export const GENERAL_SETTINGS_BOUNDS = {
  APIQueueMaxLength: { min: 1, max: 10_000 },
  APIRequestTTL: { min: 1, max: 3600 },
  banHistoryRetentionDays: { min: 1, max: 3650 },
  auditRetentionDays: { min: 1, max: 3650 },
} as const;

/** The `general-settings` singleton: request queue limits and how long the ban history and the audit log keep rows. */
export const generalSettings = settingsResource<GeneralSettings>({
  path: 'general-settings',
  queryKey: ['settings', 'general'],
});
