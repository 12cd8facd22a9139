import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { request } from '../../test-support/http.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';

describe('system:getInfo bouncerApiUrls', () => {
  let loopbackOnly: TestServer;
  let everywhere: TestServer;
  before(async () => {
    loopbackOnly = await startTestServer();
    everywhere = await startTestServer({ host: '0.0.0.0' });
  });
  after(async () => {
    await loopbackOnly.close();
    await everywhere.close();
  });

  /** Every offered URL must answer a bouncer poll: a config built from it must work. */
  async function assertEveryUrlAnswers(t: TestServer): Promise<string[]> {
    const info = await t.call('/pbxcore/api/v3/system:getInfo');
    assert.equal(info.status, 200);
    const urls: string[] = info.json.data.bouncerApiUrls;
    assert.ok(urls.length > 0);
    const { key } = createTestApiKey(t.server.services.db);
    for (const url of urls) {
      assert.ok(url.endsWith('/pbxcore/api/v3/firewall-bouncer/'), url);
      const answer = await request(`${url}v1/decisions/stream`, { headers: { 'X-Api-Key': key } });
      assert.equal(answer.status, 200, `${url}: ${answer.text}`);
    }
    return urls;
  }

  test('a server bound to one address offers only that address', async () => {
    const urls = await assertEveryUrlAnswers(loopbackOnly);
    assert.deepEqual(urls, [`http://127.0.0.1:${loopbackOnly.server.port}/pbxcore/api/v3/firewall-bouncer/`]);
  });

  test('a server bound to 0.0.0.0 offers its IPv4 addresses and loopback, each reachable', async () => {
    const urls = await assertEveryUrlAnswers(everywhere);
    assert.ok(urls.includes(`http://127.0.0.1:${everywhere.server.port}/pbxcore/api/v3/firewall-bouncer/`));
    assert.ok(
      urls.every((url) => !url.includes('[')),
      'no IPv6 address: an IPv4 listener does not answer there',
    );
  });
});
