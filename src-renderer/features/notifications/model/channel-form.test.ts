import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { channelTarget, emptyChannelInput, toChannelBody, toChannelInput } from './channel-form.ts';

describe('the channel form', () => {
  it('sends the fields of the chosen type and clears the others; an empty secret keeps the stored one', () => {
    const body = toChannelBody({
      ...emptyChannelInput(),
      name: ' Ops ',
      type: 'ntfy',
      url: 'https://ntfy.sh',
      topic: 'pbx',
      host: 'left.over.example',
      from: 'x@example.net',
    });
    assert.deepEqual(body, {
      name: 'Ops',
      type: 'ntfy',
      enabled: true,
      url: 'https://ntfy.sh',
      topic: 'pbx',
      host: null,
      port: null,
      transport: null,
      security: null,
      tlsVerify: true,
      username: null,
      from: null,
      to: null,
      appName: null,
    });
    assert.equal(toChannelBody({ ...emptyChannelInput(), type: 'webhook', secret: 'k' }).secret, 'k');
  });

  it('a port that is not a number goes as typed, for the server to name the field', () => {
    assert.equal(toChannelBody({ ...emptyChannelInput(), type: 'syslog', port: '51x' }).port, '51x');
    assert.equal(toChannelBody({ ...emptyChannelInput(), type: 'syslog', port: '514' }).port, 514);
  });

  it('reads a stored channel back and says where it sends', () => {
    const stored = {
      id: 3,
      name: 'Logs',
      type: 'syslog',
      enabled: false,
      url: null,
      topic: null,
      host: 'logs.example.net',
      port: 6514,
      transport: 'tcp',
      security: null,
      tlsVerify: true,
      username: null,
      from: null,
      to: null,
      appName: null,
      hasSecret: false,
      lastResult: null,
    } as const;
    const input = toChannelInput(stored);
    assert.deepEqual([input.port, input.transport, input.enabled, input.secret], ['6514', 'tcp', false, '']);
    assert.equal(channelTarget(stored), 'logs.example.net:6514 (TCP)');
  });
});
