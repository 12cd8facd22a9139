import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { cliArgs, spawnServe } from './test-support/cli.ts';
import { request } from './test-support/http.ts';
import { makeTempDir, removeTempDir } from './test-support/temp-db.ts';

describe('pbx-console CLI', () => {
  it('serve prints one line with the URL, answers, and stops cleanly on SIGTERM', async () => {
    const dataDir = makeTempDir('pbx-cli-');
    const serve = spawnServe(dataDir);
    const child = serve.child;
    try {
      const url = await serve.url;
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(url, 'http://127.0.0.1:0', 'port 0 resolves to the real port');
      assert.equal((await request(`${url}/pbxcore/api/v3/system:ping`)).status, 200);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
      const stdout = serve.stdout();
      assert.equal(stdout.trim().split('\n').length, 1, 'exactly one line on stdout');
    } finally {
      child.kill('SIGKILL');
      removeTempDir(dataDir);
    }
  });

  it('stops with a list of problems for invalid settings', async () => {
    const child = spawn(process.execPath, cliArgs('serve', '--port', '99999'), {
      env: { ...process.env, PBX_HOST: '' },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    assert.match(stderr, /Invalid configuration/);
    assert.match(stderr, /port/);
  });
});
