import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';
import { RequestRateCounter } from './request-rate.ts';

const PING = '/pbxcore/api/v3/system:ping';

describe('RequestRateCounter', () => {
  it('counts per address within one second and starts again in the next', () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00.100Z'));
    const counter = new RequestRateCounter(clock);
    assert.equal(counter.hit('a'), 1);
    assert.equal(counter.hit('a'), 2);
    assert.equal(counter.hit('b'), 1);
    clock.advance(899);
    assert.equal(counter.hit('a'), 3, 'still the same second');
    clock.advance(1);
    assert.equal(counter.hit('a'), 1, 'a new second');
  });
});

describe('PBXFirewallMaxReqSec', () => {
  // A clock that only moves when told, so every request below falls in the same second.
  const clock = new ManualClock(Date.now());
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ clock });
    assert.equal(
      (await t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { PBXFirewallMaxReqSec: 5 } })).status,
      200,
    );
  });
  after(() => t.close());

  it('answers 429 with Retry-After past the limit, then serves again the next second', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.remote(PING)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
    const limited = await t.remote(PING);
    assert.equal(limited.json.result, false);
    assert.match(limited.json.messages.error[0], /More than 5 requests per second/);
    assert.equal(limited.headers['retry-after'], '1');
    clock.advance(1000);
    assert.equal((await t.remote(PING)).status, 200);
  });

  it('never limits loopback or whitelisted addresses', async () => {
    for (let i = 0; i < 12; i++) assert.equal((await t.call(PING)).status, 200);
    assert.equal(
      (await t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { whitelist: '127.0.0.2' } })).status,
      200,
    );
    clock.advance(1000);
    for (let i = 0; i < 12; i++) assert.equal((await t.remote(PING)).status, 200);
  });
});
