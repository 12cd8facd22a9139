import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestServer } from '../test-support/server.ts';

describe('restart', () => {
  it('a second start on the same data directory keeps every record and does not re-run migrations', async () => {
    const t = await startTestServer();
    try {
      await t.call('/pbxcore/api/v3/extensions', {
        method: 'POST',
        body: { number: '201', username: 'Alice', secret: 'secret-201' },
      });
      const provider = await t.call('/pbxcore/api/v3/providers', {
        method: 'POST',
        body: { description: 'Trunk', host: 'sip.example.net:5060' },
      });
      assert.equal(provider.status, 201, provider.text);
      await t.call('/pbxcore/api/v3/general-settings', { method: 'PATCH', body: { APIQueueMaxLength: 12 } });
      const migrations = t.server.services.db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as {
        n: number;
      };

      await t.restart();

      assert.equal((await t.call('/pbxcore/api/v3/extensions/201')).json.data.username, 'Alice');
      assert.equal(
        (await t.call(`/pbxcore/api/v3/providers/${provider.json.data.id}`)).json.data.host,
        'sip.example.net:5060',
      );
      assert.equal((await t.call('/pbxcore/api/v3/general-settings')).json.data.APIQueueMaxLength, 12);
      assert.deepEqual(t.server.services.db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get(), migrations);
      assert.equal(t.server.services.db.pragma('journal_mode', { simple: true }), 'wal');
    } finally {
      await t.close();
    }
  });
});
