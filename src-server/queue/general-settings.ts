import { z } from 'zod';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../audit/store.ts';
import { DEFAULT_BAN_HISTORY_DAYS } from '../firewall/bans/index.ts';
import { defineSetting } from '../storage/settings.ts';

export const GENERAL_SETTINGS_KEY = 'general-settings';
export const DEFAULT_QUEUE_MAX_LENGTH = 50;
export const DEFAULT_REQUEST_TTL_SECONDS = 35;

/** A stored number, or `fallback` when it is missing or not a number (one bad field spoils no other). */
const numberOr = (fallback: number) => z.number().catch(fallback);

/**
 * The `general-settings` singleton as the web thread reads it: the queue's limits and the retention of
 * the audit log and the ban history. Other stored fields are kept as they are.
 */
export const generalSettings = defineSetting(
  GENERAL_SETTINGS_KEY,
  z.looseObject({
    APIQueueMaxLength: numberOr(DEFAULT_QUEUE_MAX_LENGTH),
    APIRequestTTL: numberOr(DEFAULT_REQUEST_TTL_SECONDS),
    banHistoryRetentionDays: numberOr(DEFAULT_BAN_HISTORY_DAYS),
    auditRetentionDays: numberOr(DEFAULT_AUDIT_RETENTION_DAYS),
  }),
  {
    APIQueueMaxLength: DEFAULT_QUEUE_MAX_LENGTH,
    APIRequestTTL: DEFAULT_REQUEST_TTL_SECONDS,
    banHistoryRetentionDays: DEFAULT_BAN_HISTORY_DAYS,
    auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
  },
);
