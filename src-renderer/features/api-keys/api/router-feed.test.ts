import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mikrotikScheduler } from './router-feed.ts';

describe('the MikroTik script', () => {
  const api = 'http://192.0.2.10:8088/pbxcore/api/v3/firewall-bouncer/';

  it("fetches as often as the key's feed interval says, which its health check counts by", () => {
    assert.match(mikrotikScheduler(api, 'k'), /\/system scheduler add .* interval=5m /);
    assert.match(mikrotikScheduler(api, 'k', 15), /\/system scheduler add .* interval=15m /);
  });
});
