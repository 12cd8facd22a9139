import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readAmiSettings } from '../peers/ami-settings.ts';
import { AmiTestServer } from '../test-support/ami-server.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { openDatabase } from './database.ts';
import { migrate } from './migrations.ts';
import { allMigrations } from './migrations/index.ts';
import { sealedSecretsMigration } from './migrations/004-sealed-secrets.ts';
import { SEALED_PREFIX } from './secret-box.ts';
import { withTempDir } from '../test-support/temp-db.ts';

const V3 = '/pbxcore/api/v3';
const SECRETS = { extension: 'sip-ext-secret-7d1f', provider: 'sip-trunk-secret-42c9', ami: 'ami-secret-b93e' };

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Whether any of the files holds the text (clear bytes, as UTF-8). */
function foundIn(files: string[], text: string): string[] {
  return files.filter((file) => existsSync(file) && readFileSync(file).includes(Buffer.from(text)));
}

/** Polls until `probe` is truthy (the AMI link comes up asynchronously). */
async function until<T>(probe: () => Promise<T>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the data directory and secrets at rest', () => {
  let t: TestServer;
  let ami: AmiTestServer;
  let umask: number;
  before(async () => {
    umask = process.umask(0o022); // the usual default, under which files were created 0644
    ami = await AmiTestServer.start({ username: 'console', secret: SECRETS.ami });
    t = await startTestServer({ httpsPort: 0 });
  });
  after(async () => {
    await t.close();
    await ami.close();
    process.umask(umask);
  });

  const dbFiles = () => ['pbx.sqlite', 'pbx.sqlite-wal', 'pbx.sqlite-shm'].map((f) => join(t.dataDir, f));

  it('keeps the data directory 0700 and every file in it 0600, whatever the umask', () => {
    assert.equal(modeOf(t.dataDir), 0o700);
    for (const file of [...dbFiles(), join(t.dataDir, 'jwt-secret'), join(t.dataDir, 'secrets.key')])
      assert.equal(modeOf(file), 0o600, file);
    assert.equal(modeOf(join(t.dataDir, 'tls')), 0o700);
    for (const file of ['self-signed-cert.pem', 'self-signed-key.pem'])
      assert.equal(modeOf(join(t.dataDir, 'tls', file)), 0o600, file);
  });

  it('stores SIP and AMI secrets sealed: their clear bytes are nowhere in the database files', async () => {
    assert.equal(
      (
        await t.call(`${V3}/extensions`, {
          method: 'POST',
          body: { number: '301', username: 'Carol', secret: SECRETS.extension },
        })
      ).status,
      201,
    );
    const provider = await t.call(`${V3}/providers`, {
      method: 'POST',
      body: { description: 'Trunk', host: 'sip.example.net', secret: SECRETS.provider },
    });
    assert.equal(provider.status, 201, provider.text);
    const saved = await t.call(`${V3}/ami`, {
      method: 'PUT',
      body: { enabled: true, host: ami.host, port: ami.port, username: 'console', secret: SECRETS.ami },
    });
    assert.equal(saved.status, 200, saved.text);

    const db = t.server.services.db;
    const stored = [
      db.prepare("SELECT secret FROM extensions WHERE number = '301'").pluck().get(),
      db.prepare('SELECT secret FROM providers WHERE id = ?').pluck().get(provider.json.data.id),
      JSON.parse(db.prepare("SELECT value FROM settings WHERE key = 'ami'").pluck().get() as string).secret,
    ] as string[];
    for (const value of stored) assert.ok(value.startsWith(SEALED_PREFIX), value);
    for (const secret of Object.values(SECRETS)) assert.deepEqual(foundIn(dbFiles(), secret), [], secret);

    // Used where it is needed: the AMI client logs in with the clear secret.
    const status = await until(async () => (await t.call(`${V3}/ami:getStatus`)).json.data.connected === true);
    assert.equal(status, true, 'the AMI client logged in with the decrypted secret');
    assert.ok(ami.logins >= 1);
  });

  it('keeps a sealed secret through a PUT that does not resend it, without sealing it twice', async () => {
    const before = t.server.services.db.prepare("SELECT secret FROM extensions WHERE number = '301'").pluck().get();
    const put = await t.call(`${V3}/extensions/301`, { method: 'PUT', body: { username: 'Carol B' } });
    assert.equal(put.status, 200, put.text);
    assert.equal(
      t.server.services.db.prepare("SELECT secret FROM extensions WHERE number = '301'").pluck().get(),
      before,
    );
    const amiPatch = await t.call(`${V3}/ami`, { method: 'PATCH', body: { port: ami.port } });
    assert.equal(amiPatch.status, 200, amiPatch.text);
  });
});

describe('secrets stored in clear by an older version', () => {
  it('are sealed at the next start, and their clear bytes leave the file', async () => {
    await withTempDir('pbx-old-secrets-', async (dataDir) => {
      const old = openDatabase(join(dataDir, 'pbx.sqlite'));
      migrate(
        old,
        allMigrations.filter((m) => m.version !== sealedSecretsMigration.version),
      );
      old.prepare("INSERT INTO extensions (number, username, secret) VALUES ('201', 'Old', ?)").run(SECRETS.extension);
      old
        .prepare(
          "INSERT INTO providers (id, description, host, secret) VALUES ('SIP-OLD', 'Old trunk', 'sip.example.net', ?)",
        )
        .run(SECRETS.provider);
      old
        .prepare("INSERT INTO settings (key, value) VALUES ('ami', ?)")
        .run(JSON.stringify({ enabled: false, username: 'console', secret: SECRETS.ami }));
      old.close();
      const files = ['pbx.sqlite', 'pbx.sqlite-wal'].map((f) => join(dataDir, f));
      assert.ok(foundIn(files, SECRETS.extension).length > 0, 'the old version left it in clear');

      const t = await startTestServer({ keepDataDir: dataDir });
      try {
        for (const secret of Object.values(SECRETS)) assert.deepEqual(foundIn(files, secret), [], secret);
        const db = t.server.services.db;
        assert.match(
          db.prepare("SELECT secret FROM extensions WHERE number = '201'").pluck().get() as string,
          /^enc:v1:/,
        );
        assert.equal(readAmiSettings(db).secret, SECRETS.ami, 'decrypted where it is used');
      } finally {
        await t.close();
      }
    });
  });
});
