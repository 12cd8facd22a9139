import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli as run } from '../../test-support/cli.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';
import { makeTempDir, removeTempDir } from '../../test-support/temp-db.ts';

const V3 = '/pbxcore/api/v3';

async function stateOf(t: TestServer) {
  const out: Record<string, unknown> = {};
  for (const name of ['firewall', 'fail2ban', 'general-settings', 'ami'])
    out[name] = (await t.call(`${V3}/${name}`)).json.data;
  return out;
}

describe('pbx-console export and import', () => {
  it('export from one stopped server, dry run, import into another data directory: the same state through the API', async () => {
    const dirA = makeTempDir('pbx-cli-a-');
    const dirB = makeTempDir('pbx-cli-b-');
    try {
      const a = await startTestServer({ keepDataDir: dirA });
      await a.call(`${V3}/firewall`, {
        method: 'POST',
        body: { permit: '192.0.2.0/24', deny: '203.0.113.0/24', description: 'Office' },
      });
      await a.call(`${V3}/fail2ban`, { method: 'PATCH', body: { maxretry: 9, whitelist: '10.9.0.0/16' } });
      await a.call(`${V3}/ami`, { method: 'PUT', body: { enabled: false, username: 'console', secret: 'clipass' } });
      const expected = await stateOf(a);
      await a.close();

      const missing = await run(['export', '--data-dir', join(dirB, 'nothing-here')]);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /No PBX Console database in .*nothing-here/);
      const plain = await run(['export', '--data-dir', dirA]);
      assert.equal(plain.code, 0, plain.stderr);
      assert.doesNotMatch(plain.stdout, /clipass/);
      const exported = await run(['export', '--data-dir', dirA, '--secrets']);
      assert.equal(exported.code, 0, exported.stderr);
      const doc = JSON.parse(exported.stdout) as { ami: { secret: string }; serverVersion: string };
      assert.equal(doc.ami.secret, 'clipass');
      assert.match(doc.serverVersion, /^\d+\.\d+\.\d+/);
      const file = join(dirB, '..', `${dirB.split('/').pop()}-backup.json`);
      writeFileSync(file, exported.stdout);

      const broken = join(tmpdir(), `pbx-broken-${process.pid}.json`);
      writeFileSync(broken, JSON.stringify({ ...JSON.parse(exported.stdout), fail2ban: { maxretry: 1000 } }));
      const refused = await run(['import', '--data-dir', dirB, broken]);
      rmSync(broken);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /Nothing was imported:\n {2}fail2ban\.maxretry: /);

      const dry = await run(['import', '--data-dir', dirB, file, '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /^Dry run: nothing was written/);
      assert.match(dry.stdout, /networkFilters: added "Office" \(192\.0\.2\.0\/24\)/);
      const b0 = await startTestServer({ keepDataDir: dirB });
      assert.deepEqual((await b0.call(`${V3}/firewall`)).json.data, [], 'the dry run wrote nothing');
      await b0.close();

      const real = await run(['import', '--data-dir', dirB, file]);
      assert.equal(real.code, 0, real.stderr);
      assert.match(real.stdout, /^Imported\./);
      rmSync(file);
      const b = await startTestServer({ keepDataDir: dirB });
      try {
        assert.deepEqual(await stateOf(b), expected);
        const secret = (await b.call(`${V3}/backup:exportConfig?secrets=true`)).json.data.ami.secret;
        assert.equal(secret, 'clipass');
      } finally {
        await b.close();
      }
    } finally {
      removeTempDir(dirA);
      removeTempDir(dirB);
    }
  });
});
