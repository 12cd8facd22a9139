import type { RecordOf } from '#shared/contract/types.ts';
import { inputRanges, SETTING_BOUNDS } from '#shared/setting-bounds.ts';
import { settingsResource } from '../../../lib/settings-resource.ts';

export type GeneralSettings = RecordOf<'GeneralSettings'>;

/** The server's bounds (src-shared/setting-bounds.ts), shown beside the fields; the server enforces them. */
export const GENERAL_SETTINGS_BOUNDS = inputRanges(SETTING_BOUNDS['general-settings']);

/** The `general-settings` singleton: request queue limits and how long the ban history and the audit log keep rows. */
export const generalSettings = settingsResource({
  resource: 'general-settings',
  queryKey: ['settings', 'general'],
});
