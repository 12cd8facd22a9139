import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { feedApiUrls } from './feed-urls.ts';

const URLS = [
  'https://192.168.10.5:8443/pbxcore/api/v3/firewall-bouncer/',
  'https://203.0.113.20:8443/pbxcore/api/v3/firewall-bouncer/',
  'https://127.0.0.1:8443/pbxcore/api/v3/firewall-bouncer/',
];

describe('feedApiUrls: the feed URL follows the key binding', () => {
  it('a "This computer only" key gets loopback only', () => {
    assert.deepEqual(feedApiUrls(URLS, 'localhost'), [URLS[2]]);
    assert.deepEqual(feedApiUrls(URLS.slice(0, 1), 'localhost'), [
      'https://127.0.0.1:8443/pbxcore/api/v3/firewall-bouncer/',
    ]);
  });
  it('a key bound to a LAN filter gets the LAN address', () => {
    assert.deepEqual(feedApiUrls(URLS, '3', '192.168.10.0/24'), [URLS[0]]);
    assert.deepEqual(feedApiUrls(URLS, '3', '203.0.113.20'), [URLS[1]]);
  });
  it('an unbound key, or a filter of a network the server is not in, gets every address but loopback', () => {
    assert.deepEqual(feedApiUrls(URLS, 'none'), URLS.slice(0, 2));
    assert.deepEqual(feedApiUrls(URLS, '4', '10.0.0.0/8'), URLS.slice(0, 2));
    assert.deepEqual(feedApiUrls(URLS, '4', '2001:db8::/32'), URLS.slice(0, 2));
  });
});
