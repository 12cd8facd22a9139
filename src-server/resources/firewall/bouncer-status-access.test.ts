import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { STREAM } from '../../test-support/bouncer.ts';
import { useTestServer } from '../../test-support/server.ts';

const STATUS = '/pbxcore/api/v3/firewall:getBouncerStatus';

describe('firewall:getBouncerStatus: who runs which bouncer where needs SENSITIVE (issue 28)', () => {
  const t = useTestServer();

  test('a read or write key without full_permissions gets states and counts, not descriptions, addresses or User-Agents', async () => {
    const db = t.server.services.db;
    const bouncer = createTestApiKey(db, { description: 'edge router in rack 4' });
    const polled = await t.remote(`${STREAM}?startup=true`, {
      headers: { 'X-Api-Key': bouncer.key, 'User-Agent': 'crowdsec-firewall-bouncer/v0.0.31' },
    });
    assert.equal(polled.status, 200, polled.text);
    t.server.services.firewall!.hosts.flush();

    const full = (await t.call(STATUS)).json.data.bouncers.find((b: { keyId: number }) => b.keyId === bouncer.id);
    assert.equal(full.description, 'edge router in rack 4', 'the console on loopback sees everything');
    assert.equal(full.lastPollIp, '127.0.0.2');
    assert.equal(full.hosts[0].userAgent, 'crowdsec-firewall-bouncer/v0.0.31');

    for (const grant of ['read', 'write'] as const) {
      const { key } = createTestApiKey(db, { allowedPaths: { '/api/v3/firewall': grant } });
      const answer = await t.remote(STATUS, { headers: { 'X-Api-Key': key } });
      assert.equal(answer.status, 200, answer.text);
      const seen = answer.json.data.bouncers.find((b: { keyId: number }) => b.keyId === bouncer.id);
      assert.equal(seen.state, full.state, grant);
      assert.equal(seen.polls, full.polls, grant);
      assert.equal(seen.description, `API key #${bouncer.id}`, grant);
      assert.equal(seen.lastPollIp, null, grant);
      assert.deepEqual(seen.hosts, [], grant);
      assert.doesNotMatch(answer.text, /rack 4|crowdsec-firewall-bouncer|127\.0\.0\.2/, grant);
    }
    const { key: fullKey } = createTestApiKey(db, { fullPermissions: true });
    const viaFull = await t.remote(STATUS, { headers: { 'X-Api-Key': fullKey } });
    assert.match(viaFull.text, /edge router in rack 4/, 'a full-permission key holds SENSITIVE');
  });
});
