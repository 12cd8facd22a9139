import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forwardedHeaders, truncateUtf8 } from './forwarded-headers.ts';

describe('forwardedHeaders', () => {
  it('strips credentials, keeps the allow-list and the reserved prefixes, lowercases keys', () => {
    const out = forwardedHeaders({
      Authorization: 'Bearer x',
      cookie: 'a=b',
      'set-cookie': ['c=d'],
      'proxy-authorization': 'Basic y',
      'X-Api-Key': 'k',
      'Authentication-Token': 't',
      'authentication-extra': 'u',
      'X-Forwarded-For': '203.0.113.1',
      'user-agent': 'ua',
      Host: 'pbx',
      'X-Pbx-Trace': '1',
      'X-Module-Demo-Flag': 'on',
      'x-custom': 'dropped',
      'content-type': 'application/json',
    });
    assert.deepEqual(out, {
      'x-forwarded-for': '203.0.113.1',
      'user-agent': 'ua',
      host: 'pbx',
      'x-pbx-trace': '1',
      'x-module-demo-flag': 'on',
    });
  });

  it('truncates values to 1024 bytes without splitting a character', () => {
    const out = forwardedHeaders({ 'user-agent': 'é'.repeat(600) });
    assert.ok(Buffer.byteLength(out['user-agent']!) <= 1024);
    assert.equal(out['user-agent'], 'é'.repeat(512));
    assert.equal(truncateUtf8('abc', 2), 'ab');
  });
});
