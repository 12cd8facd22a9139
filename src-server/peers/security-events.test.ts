import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AMI_SECURITY_CORPUS } from '../test-support/ami-security-corpus.ts';
import { parseBlock } from './ami-protocol.ts';
import { addressOfRemote, classifySecurityEvent, securityFailureOf } from './security-events.ts';

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
      securityFailureOf({ Event: 'InvalidPassword', Service: 'TEST', RemoteAddress: 'IPV4/TCP/203.0.113.9/80' }),
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
    assert.equal(addressOfRemote('IPV6/UDP/[::ffff:203.0.113.9]/5060'), '203.0.113.9');
    assert.equal(addressOfRemote('IPV6/UDP/203.0.113.9/5060'), '203.0.113.9');
    assert.equal(addressOfRemote('IPV4/UDP/999.1.1.1/5060'), undefined);
    assert.equal(addressOfRemote('IPV4/UDP/203.0.113.9/sip'), undefined);
  });

  it(`classifies every sample of the golden corpus (${AMI_SECURITY_CORPUS.length} events)`, () => {
    assert.ok(AMI_SECURITY_CORPUS.length >= 100);
    for (const sample of AMI_SECURITY_CORPUS) {
      const frame = parseBlock(sample.wire.replace(/\r\n\r\n$/, ''));
      assert.equal(frame.kind, 'message', sample.source);
      const outcome = classifySecurityEvent(frame.kind === 'message' ? frame.message : {});
      assert.ok(outcome, `${sample.source}: a security event`);
      const { expected } = sample;
      if (expected.counted) {
        assert.equal(outcome.kind, 'counted', sample.source);
        assert.deepEqual(
          outcome.kind === 'counted' && { category: outcome.category, ip: outcome.ip, account: outcome.account },
          { category: expected.category, ip: expected.address, account: expected.account },
          sample.source,
        );
      } else {
        assert.equal(outcome.kind, expected.malformed ? 'malformed' : 'ignored', sample.source);
      }
    }
  });

  it('covers every event type, service, transport and address family the corpus promises', () => {
    const text = AMI_SECURITY_CORPUS.map((s) => s.wire).join('');
    for (const name of [
      'FailedACL',
      'InvalidAccountID',
      'SessionLimit',
      'MemoryLimit',
      'LoadAverageLimit',
      'RequestNotSupported',
      'RequestNotAllowed',
      'AuthMethodNotAllowed',
      'RequestBadFormat',
      'SuccessfulAuth',
      'UnexpectedAddress',
      'ChallengeResponseFailed',
      'InvalidPassword',
      'ChallengeSent',
      'InvalidTransport',
    ])
      assert.match(text, new RegExp(`Event: ${name}\r\n`), name);
    for (const service of ['PJSIP', 'SIP', 'IAX2', 'AMI', 'HTTP'])
      assert.match(text, new RegExp(`Service: ${service}\r\n`));
    for (const remote of [
      'IPV4/UDP/',
      'IPV4/TCP/',
      'IPV4/TLS/',
      'IPV4/WS/',
      'IPV4/WSS/',
      'IPV6/UDP/[2001',
      'IPV6/UDP/[::ffff:',
    ])
      assert.ok(text.includes(`RemoteAddress: ${remote}`), remote);
  });

  it('drops failures with a huge field, no service or no address as malformed', () => {
    const base = { Event: 'InvalidPassword', Service: 'PJSIP', RemoteAddress: 'IPV4/UDP/203.0.113.9/5060' };
    assert.equal(classifySecurityEvent({ ...base, AccountID: 'x'.repeat(1_000_000) })?.kind, 'malformed');
    assert.equal(classifySecurityEvent({ ...base, Service: '' })?.kind, 'malformed');
    assert.equal(classifySecurityEvent({ Event: 'InvalidPassword', Service: 'PJSIP' })?.kind, 'malformed');
    assert.equal(classifySecurityEvent({ Event: 'ContactStatus', AOR: '100' }), undefined);
  });
});
