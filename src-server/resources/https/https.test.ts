import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { generate } from 'selfsigned';
import { request } from '../../test-support/http.ts';
import { startTestServer } from '../../test-support/server.ts';

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

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
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
    await assert.rejects(getWithCa(`${base}/pbxcore/api/v3/system:ping`), /self-signed|self signed/, 'a verifying client without the CA refuses it');

    // Over HTTPS the refresh cookie is Secure; over HTTP it is not.
    const overHttps = await request(`${base}/pbxcore/api/v3/auth:login`, { method: 'POST', body: { login: 'admin', password: 'correct horse battery' }, localAddress: '127.0.0.2' });
    assert.equal(overHttps.status, 200);
    assert.match(String(overHttps.headers['set-cookie']), /;\s*secure/i);
    const overHttp = await t.remote('/pbxcore/api/v3/auth:login', { method: 'POST', body: { login: 'admin', password: 'correct horse battery' } });
    assert.doesNotMatch(String(overHttp.headers['set-cookie']), /;\s*secure/i);

    // The same certificate is kept across restarts.
    await t.restart();
    const again = await t.call('/pbxcore/api/v3/system:getCertificate');
    assert.equal(again.json.data.fingerprint256, cert.fingerprint256);
  } finally {
    await t.close();
  }
});

test('without HTTPS, getCertificate reports it off; the https singleton enables it with a user certificate at the next start', async () => {
  const t = await startTestServer();
  try {
    const off = await t.call('/pbxcore/api/v3/system:getCertificate');
    assert.deepEqual(off.json.data, { enabled: false, pem: null, port: null, fingerprint256: null, subject: null, validTo: null, source: null, error: null });
    const defaults = await t.call('/pbxcore/api/v3/https');
    assert.deepEqual(defaults.json.data, { enabled: false, port: 8443, certificatePath: '', privateKeyPath: '' });

    const half = await t.call('/pbxcore/api/v3/https', { method: 'PATCH', body: { certificatePath: '/etc/hostname' } });
    assert.equal(half.status, 422);
    const pems = await generate([{ name: 'commonName', value: 'operator.example' }], { keySize: 2048, algorithm: 'sha256' });
    const certFile = join(t.dataDir, 'operator-cert.pem');
    const keyFile = join(t.dataDir, 'operator-key.pem');
    writeFileSync(certFile, pems.cert);
    writeFileSync(keyFile, pems.private, { mode: 0o600 });
    const port = await freePort();
    const saved = await t.call('/pbxcore/api/v3/https', { method: 'PATCH', body: { enabled: true, port, certificatePath: certFile, privateKeyPath: keyFile } });
    assert.equal(saved.status, 200, saved.text);

    await t.restart();
    const on = await t.call('/pbxcore/api/v3/system:getCertificate');
    assert.equal(on.json.data.enabled, true);
    assert.equal(on.json.data.port, port);
    assert.equal(on.json.data.source, 'configured');
    assert.equal(on.json.data.fingerprint256, new X509Certificate(pems.cert).fingerprint256);
    assert.match(on.json.data.subject, /operator\.example/);
    const ping = await request(`https://127.0.0.1:${port}/pbxcore/api/v3/system:ping`, { rejectUnauthorized: false });
    assert.equal(ping.status, 200);

    // A saved setting that cannot work (the port is taken) leaves HTTP up and says why.
    const taken = await t.call('/pbxcore/api/v3/https', { method: 'PATCH', body: { port: t.server.port } });
    assert.equal(taken.status, 200);
    await t.restart();
    const failed = await t.call('/pbxcore/api/v3/system:getCertificate');
    assert.equal(failed.status, 200);
    assert.equal(failed.json.data.enabled, false);
    assert.match(failed.json.data.error, /HTTPS was not started: .*EADDRINUSE/);
  } finally {
    await t.close();
  }
});
