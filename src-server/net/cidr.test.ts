import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cidrContains, cidrText, parseAddress, parseCidr } from './cidr.ts';

describe('address and range parsing is canonical', () => {
  it('unwraps IPv4-mapped IPv6 addresses and compresses IPv6', () => {
    assert.equal(parseAddress('::ffff:192.0.2.200')?.toString(), '192.0.2.200');
    assert.equal(parseAddress('::FFFF:C000:02C8')?.toString(), '192.0.2.200');
    assert.equal(parseAddress('2001:DB8:0:0:0:0:0:1')?.toString(), '2001:db8::1');
    assert.equal(parseAddress('fe80::1%eth0'), undefined);
  });

  it('gives a bare address its family length: a mapped one is an IPv4 /32', () => {
    assert.equal(cidrText(parseCidr('::ffff:127.0.0.1')!), '127.0.0.1/32');
    assert.equal(cidrText(parseCidr('2001:db8::1')!), '2001:db8::1/128');
  });

  it('turns mapped ranges of /96 and longer into the IPv4 range they cover', () => {
    assert.equal(cidrText(parseCidr('::ffff:192.0.2.0/120')!), '192.0.2.0/24');
    assert.equal(cidrText(parseCidr('::ffff:0:0/96')!), '0.0.0.0/0');
    assert.equal(cidrText(parseCidr('::ffff:c000:200/128')!), '192.0.2.0/32');
    // Shorter prefixes cover more than IPv4 space: they stay IPv6.
    assert.equal(parseCidr('::ffff:192.0.2.0/80')![0].kind(), 'ipv6');
  });

  it('matches a mapped address against IPv4 ranges and the other way round', () => {
    assert.equal(cidrContains('192.0.2.0/24', '::ffff:192.0.2.200'), true);
    assert.equal(cidrContains('::ffff:192.0.2.0/120', '192.0.2.7'), true);
    assert.equal(cidrContains('192.0.2.0/24', '::ffff:198.51.100.1'), false);
  });
});
