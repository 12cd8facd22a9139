import { boundedInteger, rangeText, SETTING_BOUNDS } from '../../config/setting-bounds.ts';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../../audit/store.ts';
import { DEFAULT_BAN_HISTORY_DAYS } from '../../firewall/bans/index.ts';
import { DEFAULT_QUEUE_MAX_LENGTH, DEFAULT_REQUEST_TTL_SECONDS } from '../../queue/limits.ts';
import { field } from '../../resource-kit/fields.ts';
import { adminSettingsSingleton } from '../../resource-kit/settings-singleton.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';

const bounds = SETTING_BOUNDS['general-settings'];

/** Server-wide settings that the SPEC names (queue limits). Bounds: config/setting-bounds.ts. */
export const generalSettingsDeclaration = {
  name: 'general-settings',
  description: 'Server-wide settings: request queue length, request age limit and audit log retention.',
  processor: 'GeneralSettingsProcessor',
  ...adminSettingsSingleton('GeneralSettings'),
  fields: {
    APIQueueMaxLength: field.integer(boundedInteger(bounds.APIQueueMaxLength), {
      default: DEFAULT_QUEUE_MAX_LENGTH,
      description: `Requests allowed to wait for a worker (${rangeText(bounds.APIQueueMaxLength)}); more get 503.`,
    }),
    APIRequestTTL: field.integer(boundedInteger(bounds.APIRequestTTL), {
      default: DEFAULT_REQUEST_TTL_SECONDS,
      description: `Seconds a request may wait in the queue before it is dropped (${rangeText(bounds.APIRequestTTL)}).`,
    }),
    banHistoryRetentionDays: field.integer(boundedInteger(bounds.banHistoryRetentionDays), {
      default: DEFAULT_BAN_HISTORY_DAYS,
      description:
        `Days the ban history keeps a ban after it ended ` +
        `(${rangeText(bounds.banHistoryRetentionDays)}); older rows are pruned every minute. Bans ` +
        `in force are never pruned.`,
    }),
    auditRetentionDays: field.integer(boundedInteger(bounds.auditRetentionDays), {
      default: DEFAULT_AUDIT_RETENTION_DAYS,
      description: `Days the audit log keeps an entry (${rangeText(bounds.auditRetentionDays)}); older entries are pruned every hour.`,
    }),
  },
} satisfies ResourceDeclaration;
