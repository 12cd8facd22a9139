import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../test-support/cli.ts';
import { startTestServer } from '../test-support/server.ts';
import { withTempDir } from '../test-support/temp-db.ts';

test('admin set-password reads stdin or --password, and the account can then log in remotely', async () => {
  await withTempDir('pbx-admin-cli-', async (dataDir) => {
    const short = await runCli(['admin', 'set-password', '--data-dir', dataDir, '--password', 'short']);
    assert.equal(short.code, 1);
    assert.match(short.stderr, /at least 8 characters/);

    const fromStdin = await runCli(['admin', 'set-password', '--data-dir', dataDir], 'from stdin pass\n');
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.match(fromStdin.stdout, /Password set for admin/);
    const viewer = await runCli([
      'admin',
      'set-password',
      '--data-dir',
      dataDir,
      '--login',
      'watcher',
      '--password',
      'viewer password',
    ]);
    assert.equal(viewer.code, 0, viewer.stderr);
    assert.match(viewer.stdout, /watcher \(viewer\)/);

    const t = await startTestServer({ keepDataDir: dataDir });
    try {
      const login = await t.remote('/pbxcore/api/v3/auth:login', {
        method: 'POST',
        body: { login: 'admin', password: 'from stdin pass' },
      });
      assert.equal(login.status, 200);
      const asViewer = await t.remote('/pbxcore/api/v3/auth:login', {
        method: 'POST',
        body: { login: 'watcher', password: 'viewer password' },
      });
      assert.equal(asViewer.status, 200);
      const write = await t.remote('/pbxcore/api/v3/extensions', {
        method: 'POST',
        headers: { authorization: `Bearer ${asViewer.json.data.accessToken}` },
        body: { number: '201', username: 'x', secret: 'abcdefgh12' },
      });
      assert.equal(write.status, 403);
    } finally {
      await t.close();
    }

    const bad = await runCli(['admin', 'reset']);
    assert.equal(bad.code, 2);
  });
});
