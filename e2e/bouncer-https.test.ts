import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test, type TestContext } from 'node:test';
import { request } from '../src-server/test-support/http.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { startTestServer, type TestServer } from '../src-server/test-support/server.ts';
import { startCustomBouncer, type BouncerOptions } from './support/custom-bouncer.ts';

/** The real crowdsec-custom-bouncer polling the firewall export over HTTPS (self-signed certificate). */
describe('crowdsec-custom-bouncer over HTTPS', () => {
  let server: TestServer;
  let httpsBase: string;
  before(async () => {
    server = await startTestServer({ httpsPort: 0 });
    const certificate = await server.call('/pbxcore/api/v3/system:getCertificate');
    assert.equal(certificate.status, 200, certificate.text);
    httpsBase = `https://127.0.0.1:${certificate.json.data.port}`;
    const filter = await server.call('/pbxcore/api/v3/firewall', {
      method: 'POST',
      body: { permit: '192.0.2.0/24', deny: '203.0.113.7' },
    });
    assert.equal(filter.status, 201, filter.text);
  });
  after(() => server.close());

  /** Starts the bouncer once the export answers over HTTPS (its first poll is never retried). */
  async function pollWith(t: TestContext, options: BouncerOptions) {
    const { key } = createTestApiKey(server.server.services.db, { description: 'https bouncer' });
    const apiUrl = `${httpsBase}/pbxcore/api/v3/firewall-bouncer/`;
    for (
      let i = 0;
      (await request(`${apiUrl}v1/decisions/stream`, { method: 'HEAD', headers: { 'X-Api-Key': key } })).status !== 200;
      i++
    ) {
      assert.ok(i < 50, 'the HTTPS export never answered');
      await sleep(100);
    }
    const bouncer = startCustomBouncer(apiUrl, key, options);
    t.after(() => bouncer.stop());
    return bouncer;
  }

  test('with insecure_skip_verify it receives the decisions', async (t) => {
    const bouncer = await pollWith(t, { insecureSkipVerify: true });
    assert.match(await bouncer.waitForLine(/^add 203\.0\.113\.7 /), /^add 203\.0\.113\.7 2145600 pbx\/manual /);
  });

  test('with ca_cert_path set to the self-signed certificate it verifies the server and receives the decisions', async (t) => {
    const bouncer = await pollWith(t, { caCertPath: join(server.dataDir, 'tls', 'self-signed-cert.pem') });
    await bouncer.waitFor('add', '203.0.113.7');
  });

  test('without either option it refuses the self-signed certificate and applies nothing', async (t) => {
    const bouncer = await pollWith(t, {});
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !/certificate/i.test(bouncer.log())) await sleep(100);
    assert.match(bouncer.log(), /certificate/i, 'the bouncer reports the certificate problem');
    assert.deepEqual(bouncer.calls(), []);
  });
});
