import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AmiFrameReader,
  formatAction,
  isAmiBanner,
  MAX_MESSAGE_BYTES,
  OVERSIZED_TEXT,
  parseBlock,
} from './ami-protocol.ts';

describe('AMI framing', () => {
  it('reads the banner, then messages split across chunks', () => {
    const reader = new AmiFrameReader();
    assert.deepEqual(reader.push('Asterisk Call Manager/7.0.3\r\nResponse: Succ'), [
      { kind: 'banner', text: 'Asterisk Call Manager/7.0.3' },
    ]);
    assert.deepEqual(reader.push('ess\r\nActionID: 1\r\nMessage: Authentication accepted\r\n'), []);
    assert.deepEqual(reader.push(Buffer.from('\r\nEvent: FullyBooted\r\n\r\n')), [
      { kind: 'message', message: { Response: 'Success', ActionID: '1', Message: 'Authentication accepted' } },
      { kind: 'message', message: { Event: 'FullyBooted' } },
    ]);
  });

  it('keeps values with colons, tolerates bare LF and reports junk blocks as malformed', () => {
    const reader = new AmiFrameReader({ expectBanner: false });
    const frames = reader.push('Event: ContactStatus\nURI: sip:100@192.0.2.5:5060\n\n\r\n\r\nno colon here\r\n\r\n');
    assert.deepEqual(frames[0], {
      kind: 'message',
      message: { Event: 'ContactStatus', URI: 'sip:100@192.0.2.5:5060' },
    });
    assert.equal(frames[1]?.kind, 'malformed');
    assert.equal(frames.length, 2);
  });

  it('decodes UTF-8 split across chunks', () => {
    const reader = new AmiFrameReader({ expectBanner: false });
    const bytes = Buffer.from('Event: X\r\nName: Zoë\r\n\r\n');
    const cut = bytes.indexOf(0xc3) + 1;
    assert.deepEqual(reader.push(bytes.subarray(0, cut)), []);
    assert.deepEqual(reader.push(bytes.subarray(cut)), [{ kind: 'message', message: { Event: 'X', Name: 'Zoë' } }]);
  });

  it('reports a block over the limit once and skips it to its end, keeping the messages after it', () => {
    const reader = new AmiFrameReader({ expectBanner: false });
    assert.deepEqual(reader.push(`Event: X\r\nData: ${'a'.repeat(MAX_MESSAGE_BYTES)}`), [
      { kind: 'malformed', text: OVERSIZED_TEXT },
    ]);
    assert.deepEqual(reader.push('a'.repeat(70_000)), [], 'reported once, not per chunk');
    assert.deepEqual(reader.push('aa\r\n'), []);
    assert.deepEqual(reader.push('\r\nEvent: Y\r\n\r\n'), [{ kind: 'message', message: { Event: 'Y' } }]);
  });

  it('refuses a banner line larger than the limit (not an AMI server)', () => {
    const reader = new AmiFrameReader();
    assert.throws(() => reader.push('x'.repeat(MAX_MESSAGE_BYTES + 1)), /banner larger than/);
  });

  it('keeps the first of repeated keys and ignores keys with spaces', () => {
    assert.deepEqual(parseBlock('Event: A\r\nEvent: B\r\nbad key: x'), { kind: 'message', message: { Event: 'A' } });
  });

  it('recognises the banner and strips line breaks from action values', () => {
    assert.equal(isAmiBanner('Asterisk Call Manager/5.0.1'), true);
    assert.equal(isAmiBanner('SSH-2.0-OpenSSH_9.2'), false);
    assert.equal(
      formatAction({ Action: 'Login', Username: 'a\r\nAction: Originate', Skip: undefined }),
      'Action: Login\r\nUsername: a Action: Originate\r\n\r\n',
    );
  });
});
