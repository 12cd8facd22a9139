import { settingsResource } from '../../../lib/settings-resource.ts';

export interface GeneralSettings {
  APIQueueMaxLength: number;
  APIRequestTTL: number;
}

/** The server's bounds, shown beside the fields. */
export const GENERAL_SETTINGS_BOUNDS = {
  APIQueueMaxLength: { min: 1, max: 10_000 },
  APIRequestTTL: { min: 1, max: 3600 },
} as const;

/** The `general-settings` singleton: request queue limits. */
export const generalSettings = settingsResource<GeneralSettings>({ path: 'general-settings', queryKey: ['settings', 'general'] });
