import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { test } from 'node:test';
import { generate } from 'selfsigned';
import { request } from '../../test-support/http.ts';
import { writeSetting } from '../../storage/settings.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';
import { freePort, servedFingerprint } from '../../test-support/tls.ts';

/** GET over HTTPS that verifies the server against `ca` (what a bouncer's ca_cert_path does). */
function getWithCa(url: string, ca?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca, rejectUnauthorized: true, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('PBX_HTTPS_PORT starts a self-signed HTTPS listener reachable with and without verification', async () => {
  const t = await startTestServer({ httpsPort: 0, adminPassword: 'correct horse battery' });
  try {
    const info = await t.call('/pbxcore/api/v3/system:getCertificate');
    assert.equal(info.status, 200);
    const cert = info.json.data;
    assert.equal(cert.enabled, true);
    assert.equal(cert.source, 'self-signed');
    assert.match(cert.fingerprint256, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const pem = readFileSync(join(t.dataDir, 'tls', 'self-signed-cert.pem'), 'utf8');
    assert.equal(new X509Certificate(pem).fingerprint256, cert.fingerprint256);
    // The certificate itself is served for pinning (ca_cert_path), never the key.
    assert.equal(new X509Certificate(cert.pem).fingerprint256, cert.fingerprint256);
    assert.doesNotMatch(cert.pem, /PRIVATE KEY/);
    assert.equal(statSync(join(t.dataDir, 'tls', 'self-signed-key.pem')).mode & 0o777, 0o600);

    const base = `https://127.0.0.1:${cert.port}`;
    const insecure = await request(`${base}/pbxcore/api/v3/system:ping`, { rejectUnauthorized: false });
    assert.equal(insecure.status, 200);
    const verified = await getWithCa(`${base}/pbxcore/api/v3/system:ping`, pem);
    assert.equal(verified.status, 200);
    assert.equal(JSON.parse(verified.text).result, true);
    await assert.rejects(
      getWithCa(`${base}/pbxcore/api/v3/system:ping`),
      /self-signed|self signed/,
      'a verifying client without the CA refuses it',
    );

    // Over HTTPS the refresh cookie is Secure; over HTTP it is not.
    const overHttps = await request(`${base}/pbxcore/api/v3/auth:login`, {
      method: 'POST',
      body: { login: 'admin', password: 'correct horse battery' },
      localAddress: '127.0.0.2',
    });
    assert.equal(overHttps.status, 200);
    assert.match(String(overHttps.headers['set-cookie']), /;\s*secure/i);
    const overHttp = await t.remote('/pbxcore/api/v3/auth:login', {
      method: 'POST',
      body: { login: 'admin', password: 'correct horse battery' },
    });
    assert.doesNotMatch(String(overHttp.headers['set-cookie']), /;\s*secure/i);

    // PBX_HTTPS_PORT overrides the saved switch and port: the listener stays where the operator put it.
    assert.equal(
      (await t.call('/pbxcore/api/v3/https', { method: 'PATCH', body: { enabled: false, port: 9 } })).status,
      200,
    );
    const overridden = await applied(t);
    assert.equal(overridden.enabled, true);
    assert.equal(overridden.port, cert.port);
    assert.equal((await request(`${base}/pbxcore/api/v3/system:ping`, { rejectUnauthorized: false })).status, 200);

    // The same certificate is kept across restarts.
    await t.restart();
    const again = await t.call('/pbxcore/api/v3/system:getCertificate');
    assert.equal(again.json.data.fingerprint256, cert.fingerprint256);
  } finally {
    await t.close();
  }
});

/** getCertificate once the web thread has applied what was saved (pending false). */
async function applied(t: TestServer) {
  for (let i = 0; i < 100; i++) {
    const answer = await t.call('/pbxcore/api/v3/system:getCertificate');
    assert.equal(answer.status, 200, answer.text);
    if (answer.json.data.pending === false) return answer.json.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the HTTPS settings stayed pending for 5 s');
}

async function operatorCertificate(dir: string, name: string) {
  const pems = await generate([{ name: 'commonName', value: name }], { keySize: 2048, algorithm: 'sha256' });
  const certFile = join(dir, 'operator-cert.pem');
  const keyFile = join(dir, 'operator-key.pem');
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  writeFileSync(certFile, pems.cert);
  return { certFile, keyFile, fingerprint256: new X509Certificate(pems.cert).fingerprint256 };
}

test(
  'the https singleton applies live: enable with a user certificate, re-key, keep the old ' +
    'port when the new one is taken, disable',
  async () => {
    const t = await startTestServer();
    try {
      const off = await t.call('/pbxcore/api/v3/system:getCertificate');
      assert.deepEqual(off.json.data, {
        enabled: false,
        pending: false,
        pem: null,
        port: null,
        fingerprint256: null,
        subject: null,
        validTo: null,
        source: null,
        error: null,
      });
      const defaults = await t.call('/pbxcore/api/v3/https');
      assert.deepEqual(defaults.json.data, { enabled: false, port: 8443, certificatePath: '', privateKeyPath: '' });
      const renewWhileOff = await t.call('/pbxcore/api/v3/https:renewCertificate', { method: 'POST' });
      assert.equal(renewWhileOff.status, 409);
      assert.match(renewWhileOff.json.messages.error[0], /HTTPS is not running/);

      const half = await t.call('/pbxcore/api/v3/https', {
        method: 'PATCH',
        body: { certificatePath: '/etc/hostname' },
      });
      assert.equal(half.status, 422);

      // Enabled with the operator's certificate: served without a restart.
      const first = await operatorCertificate(t.dataDir, 'operator.example');
      const port = await freePort();
      const saved = await t.call('/pbxcore/api/v3/https', {
        method: 'PATCH',
        body: { enabled: true, port, certificatePath: first.certFile, privateKeyPath: first.keyFile },
      });
      assert.equal(saved.status, 200, saved.text);
      const on = await applied(t);
      assert.equal(on.enabled, true);
      assert.equal(on.port, port);
      assert.equal(on.source, 'configured');
      assert.equal(on.error, null);
      assert.equal(on.fingerprint256, first.fingerprint256);
      assert.match(on.subject, /operator\.example/);
      assert.equal(await servedFingerprint(port), first.fingerprint256);
      const info = await t.call('/pbxcore/api/v3/system:getInfo');
      assert.equal(info.json.data.httpsPort, port, 'bouncer URLs follow the live port');
      assert.ok(
        info.json.data.bouncerApiUrls.every((url: string) => url.startsWith('https://') && url.includes(`:${port}/`)),
        info.text,
      );

      // Saved but not yet seen by the web thread: pending, until the change notice arrives.
      writeSetting(t.server.services.db, 'https', {
        ...defaults.json.data,
        enabled: true,
        certificatePath: first.certFile,
        privateKeyPath: first.keyFile,
        port: port + 1,
      });
      assert.equal((await t.call('/pbxcore/api/v3/system:getCertificate')).json.data.pending, true);
      writeSetting(t.server.services.db, 'https', {
        ...defaults.json.data,
        enabled: true,
        port,
        certificatePath: first.certFile,
        privateKeyPath: first.keyFile,
      });
      assert.equal((await t.call('/pbxcore/api/v3/system:getCertificate')).json.data.pending, false);

      // A renewed certificate on disk (same paths): "reload" re-keys the running listener.
      const second = await operatorCertificate(t.dataDir, 'renewed.example');
      assert.equal(
        await servedFingerprint(port),
        first.fingerprint256,
        'files on disk alone change nothing until asked',
      );
      const renewed = await t.call('/pbxcore/api/v3/https:renewCertificate', { method: 'POST' });
      assert.equal(renewed.status, 200, renewed.text);
      assert.equal(renewed.json.data.renewals, 1);
      assert.equal((await applied(t)).fingerprint256, second.fingerprint256);
      assert.equal(await servedFingerprint(port), second.fingerprint256);

      // Back to the self-signed certificate, then a new self-signed key pair on request.
      assert.equal(
        (await t.call('/pbxcore/api/v3/https', { method: 'PATCH', body: { certificatePath: '', privateKeyPath: '' } }))
          .status,
        200,
      );
      const selfSigned = await applied(t);
      assert.equal(selfSigned.source, 'self-signed');
      assert.equal(await servedFingerprint(port), selfSigned.fingerprint256);
      assert.equal((await t.call('/pbxcore/api/v3/https:renewCertificate', { method: 'POST' })).status, 200);
      const rekeyed = await applied(t);
      assert.notEqual(rekeyed.fingerprint256, selfSigned.fingerprint256);
      assert.equal(await servedFingerprint(port), rekeyed.fingerprint256);
      assert.equal(
        new X509Certificate(readFileSync(join(t.dataDir, 'tls', 'self-signed-cert.pem'))).fingerprint256,
        rekeyed.fingerprint256,
      );
      assert.equal(statSync(join(t.dataDir, 'tls', 'self-signed-key.pem')).mode & 0o777, 0o600);

      // A new port that cannot be bound: the listener stays where it was, and the console is told why.
      const taken = await t.call('/pbxcore/api/v3/https', { method: 'PATCH', body: { port: t.server.port } });
      assert.equal(taken.status, 200);
      const refused = await applied(t);
      assert.equal(refused.enabled, true);
      assert.equal(refused.port, port);
      assert.match(refused.error, /The new HTTPS settings were not applied: .*EADDRINUSE.*keeps running on port/);
      assert.equal(
        (await request(`https://127.0.0.1:${port}/pbxcore/api/v3/system:ping`, { rejectUnauthorized: false })).status,
        200,
      );

      // A free port: bound first, then the old one closes.
      const moved = await freePort();
      assert.equal((await t.call('/pbxcore/api/v3/https', { method: 'PATCH', body: { port: moved } })).status, 200);
      const onMoved = await applied(t);
      assert.equal(onMoved.port, moved);
      assert.equal(onMoved.error, null);
      assert.equal(
        (await request(`https://127.0.0.1:${moved}/pbxcore/api/v3/system:ping`, { rejectUnauthorized: false })).status,
        200,
      );
      await assert.rejects(
        request(`https://127.0.0.1:${port}/pbxcore/api/v3/system:ping`, { rejectUnauthorized: false }),
        /ECONNREFUSED/,
      );

      // Disabled: the port closes at once; the setting holds across a restart.
      assert.equal((await t.call('/pbxcore/api/v3/https', { method: 'PATCH', body: { enabled: false } })).status, 200);
      assert.equal((await applied(t)).enabled, false);
      await assert.rejects(
        request(`https://127.0.0.1:${moved}/pbxcore/api/v3/system:ping`, { rejectUnauthorized: false }),
        /ECONNREFUSED/,
      );
      assert.equal((await t.call('/pbxcore/api/v3/system:getInfo')).json.data.httpsPort, null);
      await t.restart();
      assert.equal((await applied(t)).enabled, false);

      // A setting that cannot work at start (port taken) leaves HTTP up and says why.
      assert.equal(
        (await t.call('/pbxcore/api/v3/https', { method: 'PATCH', body: { enabled: true, port: t.server.port } }))
          .status,
        200,
      );
      const notApplied = await applied(t);
      assert.equal(notApplied.enabled, false);
      assert.match(notApplied.error, /not applied: .*EADDRINUSE/);
      await t.restart();
      const failed = await t.call('/pbxcore/api/v3/system:getCertificate');
      assert.equal(failed.status, 200);
      assert.equal(failed.json.data.enabled, false);
      assert.match(failed.json.data.error, /HTTPS was not started: .*EADDRINUSE/);
    } finally {
      await t.close();
    }
  },
);
