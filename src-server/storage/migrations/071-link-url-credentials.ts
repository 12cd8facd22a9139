import type { Migration } from './migration.ts';
import { CROWDSEC_LINK_SETTING_KEY } from './070-crowdsec-link.ts';

/** What the url field refuses since this step (upstream/link-settings-schema.ts CONTROL_OR_SPACE). */
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f\s]/u;

/** The stored url made safe: without user:password@, or '' when it held control characters. */
export function safeStoredLinkUrl(url: string): string {
  if (CONTROL_OR_SPACE.test(url)) return '';
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

/**
 * The LAPI url no longer holds credentials or control characters (issue 28): a stored one had its
 * password readable by every reader and in backups without secrets, and a line break in it could
 * reach a request line. userinfo is removed; a url with control characters is cleared and the link
 * turned off (the operator enters it again). The file is compacted so the old bytes do not survive.
 */
export const linkUrlCredentialsMigration: Migration = {
  version: 71,
  name: 'CrowdSec link: no user:password@ or control characters in the stored url',
  compactAfter: true,
  up(db) {
    const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(CROWDSEC_LINK_SETTING_KEY) as
      | { value: string }
      | undefined;
    if (!row) return;
    let settings: Record<string, unknown>;
    try {
      settings = JSON.parse(row.value) as Record<string, unknown>;
    } catch {
      return;
    }
    if (typeof settings.url !== 'string') return;
    const url = safeStoredLinkUrl(settings.url);
    if (url === settings.url) return;
    const next = { ...settings, url, ...(url === '' ? { enabled: false } : {}) };
    db.prepare('UPDATE settings SET value = ? WHERE key = ?').run(JSON.stringify(next), CROWDSEC_LINK_SETTING_KEY);
  },
};
