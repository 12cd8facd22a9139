import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { banThroughFailures } from '../src-server/test-support/bouncer.ts';
import { startTestServer, type TestServer } from '../src-server/test-support/server.ts';
import { CUSTOM_BOUNCER, startCustomBouncer } from './support/custom-bouncer.ts';

/**
 * A resync against the real CrowdSec client (`crowdsec-custom-bouncer`): everything it should hold
 * comes again in `new`, which it takes without harm (what it holds stays, nothing is deleted, no
 * warning), and it keeps being served.
 */
const STREAM = '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream';

describe('resync with crowdsec-custom-bouncer', () => {
  let server: TestServer;
  before(async () => {
    assert.ok(existsSync(CUSTOM_BOUNCER), `${CUSTOM_BOUNCER} is missing: apt-get install -y crowdsec-custom-bouncer`);
    server = await startTestServer({ adminPassword: 'bouncer-resync-e2e' });
  });
  after(() => server.close());

  test('the client takes everything again without harm and keeps receiving changes', async (t) => {
    const { id, key } = createTestApiKey(server.server.services.db, { description: 'custom bouncer resync' });
    // Its first poll has ?startup=true and it never retries a failed start: wait for the export first.
    for (let i = 0; i < 50; i++) {
      const head = await server.call(STREAM, { method: 'HEAD', headers: { 'X-Api-Key': key } }).catch(() => undefined);
      if (head?.status === 200) break;
      await sleep(100);
    }
    banThroughFailures(server, 'sip', '198.51.100.61');
    // A short cache: the client adds again what it is sent once its memory of it lapses.
    const bouncer = startCustomBouncer(`${server.url}/pbxcore/api/v3/firewall-bouncer/`, key, {
      cacheRetention: '2s',
    });
    t.after(() => bouncer.stop());
    await bouncer.waitFor('add', '198.51.100.61');
    const polls = () => server.server.services.firewall!.cursors.get(id)?.polls ?? 0;

    const answer = await server.call(`/pbxcore/api/v3/api-keys/${id}:resync`, { method: 'POST' });
    assert.equal(answer.status, 200, answer.text);
    const resyncedAt = polls();
    banThroughFailures(server, 'sip', '198.51.100.62');
    await bouncer.waitFor('add', '198.51.100.62');
    assert.ok(polls() > resyncedAt, 'served after the resync');
    // What it already had comes again in `new`: once its cache lapses the client adds it again, harmlessly.
    const adds = () => bouncer.calls().filter((c) => c.action === 'add' && c.value === '198.51.100.61').length;
    for (let i = 0; i < 100 && adds() < 2; i++) await sleep(100);
    assert.ok(adds() >= 2, `198.51.100.61 added ${adds()} time(s)`);
    const calls = bouncer.calls();
    assert.equal(calls.filter((c) => c.action === 'del').length, 0, 'nothing deleted');
    assert.deepEqual(
      bouncer
        .log()
        .split('\n')
        .filter((line) => /level=(warning|error|fatal)/.test(line)),
      [],
      'the client logged no warning',
    );
  });
});
