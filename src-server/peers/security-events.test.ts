import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressOfRemote, securityFailureOf } from './security-events.ts';

describe('AMI security events', () => {
  it('maps services to ban categories', () => {
    const base = { RemoteAddress: 'IPV4/UDP/203.0.113.9/5060', AccountID: '100' };
    assert.deepEqual(securityFailureOf({ Event: 'InvalidPassword', Service: 'PJSIP', ...base }), {
      category: 'sip',
      ip: '203.0.113.9',
      reason: 'InvalidPassword (PJSIP account "100")',
      account: '100',
    });
    assert.equal(securityFailureOf({ Event: 'ChallengeResponseFailed', Service: 'SIP', ...base })?.category, 'sip');
    assert.equal(securityFailureOf({ Event: 'InvalidAccountID', Service: 'IAX2', ...base })?.category, 'iax');
    assert.equal(securityFailureOf({ Event: 'FailedACL', Service: 'AMI', ...base })?.category, 'ami');
    assert.equal(securityFailureOf({ Event: 'RequestBadFormat', Service: 'AMI', ...base })?.category, 'ami');
  });

  it('ignores other events, unknown services and unreadable addresses', () => {
    assert.equal(
      securityFailureOf({ Event: 'SuccessfulAuth', Service: 'PJSIP', RemoteAddress: 'IPV4/UDP/203.0.113.9/5060' }),
      undefined,
    );
    assert.equal(
      securityFailureOf({ Event: 'InvalidPassword', Service: 'HTTP', RemoteAddress: 'IPV4/TCP/203.0.113.9/80' }),
      undefined,
    );
    assert.equal(
      securityFailureOf({ Event: 'InvalidPassword', Service: 'PJSIP', RemoteAddress: 'garbage' }),
      undefined,
    );
    assert.equal(securityFailureOf({ Event: 'InvalidPassword', Service: 'PJSIP' }), undefined);
  });

  it('reads IPv4 and IPv6 remote addresses', () => {
    assert.equal(addressOfRemote('IPV4/TCP/198.51.100.7/5061'), '198.51.100.7');
    assert.equal(addressOfRemote('IPV6/UDP/2001:db8::1/5060'), '2001:db8::1');
    assert.equal(addressOfRemote('IPV6/UDP/[2001:db8::2]/5060'), '2001:db8::2');
    assert.equal(addressOfRemote('IPV6/UDP/::ffff:192.0.2.1/5060'), '192.0.2.1');
    assert.equal(addressOfRemote('IPV4/UDP/999.1.1.1/5060'), undefined);
  });
});
