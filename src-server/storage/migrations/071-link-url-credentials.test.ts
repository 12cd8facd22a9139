import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../database.ts';
import { migrate } from '../migrations.ts';
import { withTempDir } from '../../test-support/temp-db.ts';
import { allMigrations } from './index.ts';
import { CROWDSEC_LINK_SETTING_KEY } from './070-crowdsec-link.ts';

const stored = (db: ReturnType<typeof openDatabase>) =>
  JSON.parse(
    (db.prepare('SELECT value FROM settings WHERE key = ?').get(CROWDSEC_LINK_SETTING_KEY) as { value: string }).value,
  ) as Record<string, unknown>;

test('migration 071 removes user:password@ from the stored LAPI url, and clears one with control characters', () => {
  for (const [url, expected, enabled] of [
    ['http://admin:hunter2@192.0.2.10:8080/', 'http://192.0.2.10:8080/', true],
    ['http://127.0.0.1:1/\r\nX-Injected: 1', '', false],
    ['https://lapi.example.net/', 'https://lapi.example.net/', true],
  ] as const) {
    withTempDir('pbx-m071-', (dir) => {
      const db = openDatabase(join(dir, 'pbx.sqlite'));
      migrate(
        db,
        allMigrations.filter((m) => m.version < 71),
      );
      db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(
        CROWDSEC_LINK_SETTING_KEY,
        JSON.stringify({ enabled: true, url, machineLogin: 'site' }),
      );
      migrate(db);
      const after = stored(db);
      assert.equal(after.url, expected, JSON.stringify(url));
      assert.equal(after.enabled, enabled);
      assert.equal(after.machineLogin, 'site');
      assert.doesNotMatch(JSON.stringify(after), /hunter2|X-Injected/);
      db.close();
    });
  }
});
