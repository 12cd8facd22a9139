import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  startHttpReceiver,
  startSmtpReceiver,
  startSyslogReceiver,
  type HttpReceiver,
  type SmtpReceiver,
  type SyslogReceiver,
} from '../test-support/notification-receivers.ts';
import { freePort } from '../test-support/tls.ts';
import type { HealthCheckState } from '../wire/types.ts';
import type { ChannelConfig, SendContext } from './channel-config.ts';
import { boundedPost } from './http-post.ts';
import { ruleMessage, testMessage } from './message.ts';
import { sendOnChannel } from './send.ts';

const CONTEXT: SendContext = { timeoutMs: 10_000, hostname: 'pbx-1', now: Date.parse('2026-03-01T10:00:00Z') };
const HOSTILE = 'fw1 down\r\nBcc: evil@example.net\r\nX-Injected: 1';

const event = (over: Partial<HealthCheckState> = {}): HealthCheckState => ({
  id: 'bouncer-silent:1',
  kind: 'bouncer-silent',
  state: 'failing',
  severity: 'critical',
  title: 'fw1 has not polled for 42 min',
  since: '2026-03-01T09:18:00.000Z',
  ...over,
});

const channel = (over: Partial<ChannelConfig>): ChannelConfig => ({
  id: 1,
  name: 'test',
  type: 'webhook',
  enabled: true,
  url: null,
  topic: null,
  host: null,
  port: null,
  transport: null,
  security: null,
  tlsVerify: true,
  username: null,
  from: null,
  to: null,
  appName: null,
  secret: '',
  ...over,
});

/** Parses one RFC 5424 record: PRI, VERSION, TIMESTAMP, HOSTNAME, APP-NAME, PROCID, MSGID, SD, MSG. */
function parse5424(record: string) {
  const match = /^<(\d{1,3})>1 (\S+) (\S+) (\S+) (\S+) (\S+) (\[(?:[^\]\\]|\\.)*\]) \uFEFF(.*)$/su.exec(record);
  assert.ok(match, `an RFC 5424 record: ${JSON.stringify(record)}`);
  const [, pri, timestamp, hostname, appName, procId, msgId, sd, msg] = match as unknown as string[];
  return { pri: Number(pri), timestamp, hostname, appName, procId, msgId, sd: sd!, msg: msg! };
}

describe('webhook', () => {
  let receiver: HttpReceiver;
  before(async () => (receiver = await startHttpReceiver()));
  after(() => receiver.close());

  it('POSTs JSON signed with HMAC-SHA256 of the raw body, with a timestamp header', async () => {
    const secret = 'webhook key 1';
    const outcome = await sendOnChannel(
      channel({ type: 'webhook', url: `${receiver.url}/hook?x=1`, secret }),
      ruleMessage('on call', [event({ title: HOSTILE })], 0, 'pbx-1'),
      CONTEXT,
    );
    assert.deepEqual([outcome.ok, outcome.status], [true, 200], outcome.message);
    const request = receiver.requests.at(-1)!;
    assert.equal(request.path, '/hook?x=1');
    assert.equal(request.headers['content-type'], 'application/json');
    const expected = `sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`;
    assert.equal(request.headers['x-pbx-signature'], expected);
    assert.equal(request.headers['x-pbx-timestamp'], String(CONTEXT.now / 1000));
    assert.equal(request.headers['x-injected'], undefined);
    const body = JSON.parse(request.body);
    assert.equal(body.sentAt, '2026-03-01T10:00:00.000Z');
    assert.equal(body.events[0].id, 'bouncer-silent:1');
    assert.doesNotMatch(body.subject, /[\r\n]/, 'the subject is one line');
    assert.ok(!request.body.includes(secret), 'the secret signs the body, it is not in it');
  });

  it('does not follow a redirect (the signed body and headers stay with the configured host)', async () => {
    const other = await startHttpReceiver();
    try {
      receiver.answer = () => ({ status: 302, body: '' });
      const outcome = await boundedPost(`${receiver.url}/r`, {}, '{}', 10_000);
      assert.equal(outcome.ok, false);
      assert.equal(outcome.status, 302);
      assert.equal(other.requests.length, 0);
    } finally {
      receiver.answer = () => ({ status: 200 });
      await other.close();
    }
  });
});

describe('a receiver that is slow, failing or answers a huge body', () => {
  let receiver: HttpReceiver;
  before(async () => (receiver = await startHttpReceiver()));
  after(() => receiver.close());

  it('an error status is a failure naming the status, with at most a bounded piece of the answer', async () => {
    receiver.answer = () => ({ status: 503, body: 'busy\r\nX-Fake: 1' });
    const outcome = await boundedPost(receiver.url, {}, '{}', 10_000);
    assert.deepEqual([outcome.ok, outcome.status], [false, 503]);
    assert.equal(outcome.message, 'HTTP 503: busy X-Fake: 1');
  });

  it('a huge body is not downloaded: the failure keeps 200 characters of it at most', async () => {
    receiver.answer = () => ({ status: 500, bytes: 256 * 1024 * 1024 });
    const outcome = await boundedPost(receiver.url, {}, '{}', 10_000);
    assert.deepEqual([outcome.ok, outcome.status], [false, 500]);
    assert.ok(outcome.message.length <= 200, `${outcome.message.length} characters`);
    assert.match(outcome.message, /^HTTP 500: x+/);
  });

  it('a receiver that never answers is given up at the timeout', async () => {
    receiver.answer = () => 'hold';
    const outcome = await boundedPost(receiver.url, {}, '{}', 200);
    receiver.release();
    assert.deepEqual(outcome, { ok: false, status: 0, message: 'no answer in time' });
  });

  it('a refused connection is a failure, not a throw', async () => {
    const outcome = await boundedPost(`http://127.0.0.1:${await freePort()}/`, {}, '{}', 10_000);
    assert.deepEqual([outcome.ok, outcome.message], [false, 'ECONNREFUSED']);
  });
});

describe('ntfy', () => {
  let receiver: HttpReceiver;
  before(async () => (receiver = await startHttpReceiver()));
  after(() => receiver.close());

  it('POSTs the text to <server>/<topic> with Title, Priority, Tags and the token', async () => {
    const outcome = await sendOnChannel(
      channel({ type: 'ntfy', url: `${receiver.url}/`, topic: 'pbx-alerts', secret: 'tk_abc' }),
      ruleMessage('on call', [event({ title: 'Zürich fw1 ✓ silent' })], 0, 'pbx-1'),
      CONTEXT,
    );
    assert.ok(outcome.ok, outcome.message);
    const request = receiver.requests.at(-1)!;
    assert.equal(request.path, '/pbx-alerts');
    assert.equal(request.headers.priority, '5');
    assert.equal(request.headers.tags, 'rotating_light');
    assert.equal(request.headers.authorization, 'Bearer tk_abc');
    const title = String(request.headers.title);
    const encoded = /^=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=$/.exec(title);
    assert.ok(encoded, `RFC 2047 for a non-ASCII title: ${title}`);
    assert.equal(Buffer.from(encoded[1]!, 'base64').toString('utf8'), 'pbx-1: Critical: Zürich fw1 ✓ silent');
    assert.match(request.body, /Zürich fw1 ✓ silent/);
  });

  it('CR/LF in a title cannot add a header', async () => {
    const outcome = await sendOnChannel(
      channel({ type: 'ntfy', url: receiver.url, topic: 't' }),
      ruleMessage('r', [event({ title: HOSTILE, state: 'ok', failedForMs: 42 * 60_000 })], 0, 'pbx-1'),
      CONTEXT,
    );
    assert.ok(outcome.ok, outcome.message);
    const request = receiver.requests.at(-1)!;
    assert.equal(request.headers['x-injected'], undefined);
    assert.equal(request.headers.bcc, undefined);
    assert.equal(request.headers.title, 'pbx-1: Recovered: fw1 down Bcc: evil@example.net X-Injected: 1 after 42 min');
    assert.equal(request.headers.priority, '3');
    assert.equal(request.headers.authorization, undefined, 'no token, no Authorization');
  });
});

describe('e-mail over SMTP with STARTTLS', () => {
  let smtp: SmtpReceiver;
  before(async () => (smtp = await startSmtpReceiver()));
  after(() => smtp.close());

  const mailChannel = (over: Partial<ChannelConfig> = {}) =>
    channel({
      type: 'email',
      host: '127.0.0.1',
      port: smtp.port,
      security: 'starttls',
      tlsVerify: false,
      username: 'alerts',
      secret: 'smtp pass',
      from: 'pbx@example.com',
      to: 'tech@example.com, oncall@example.com',
      ...over,
    });

  it('upgrades with STARTTLS, logs in and delivers to the recipients', async () => {
    const outcome = await sendOnChannel(mailChannel(), ruleMessage('on call', [event()], 0, 'pbx-1'), CONTEXT);
    assert.ok(outcome.ok, outcome.message);
    await smtp.waitFor(1);
    const mail = smtp.mails.at(-1)!;
    assert.equal(mail.secure, true, 'STARTTLS before the mail');
    assert.equal(mail.user, 'alerts');
    assert.equal(mail.from, 'pbx@example.com');
    assert.deepEqual(mail.to, ['tech@example.com', 'oncall@example.com']);
    assert.match(mail.raw, /^Subject: pbx-1: Critical: fw1 has not polled for 42 min\r$/m);
  });

  it('CR/LF in a title cannot add a header or a recipient', async () => {
    const before = smtp.mails.length;
    const outcome = await sendOnChannel(
      mailChannel(),
      ruleMessage('on call', [event({ title: HOSTILE })], 0, 'pbx-1'),
      CONTEXT,
    );
    assert.ok(outcome.ok, outcome.message);
    await smtp.waitFor(before + 1);
    const mail = smtp.mails.at(-1)!;
    assert.deepEqual(mail.to, ['tech@example.com', 'oncall@example.com']);
    const headers = mail.raw.split('\r\n\r\n')[0]!;
    assert.doesNotMatch(headers, /^Bcc:/im);
    assert.doesNotMatch(headers, /^X-Injected:/im);
    assert.match(headers, /^Subject: pbx-1: Critical: fw1 down Bcc: evil@example\.net X-Injected: 1\r?$/m);
  });

  it('refuses a server whose certificate does not check out, and sends nothing (tlsVerify)', async () => {
    const before = smtp.mails.length;
    const outcome = await sendOnChannel(mailChannel({ tlsVerify: true }), testMessage('mail', CONTEXT.now), CONTEXT);
    assert.equal(outcome.ok, false);
    assert.match(outcome.message, /certificate/i);
    assert.equal(smtp.mails.length, before);
  });

  it('a wrong password is a failure with the SMTP code, without the password', async () => {
    const outcome = await sendOnChannel(
      mailChannel({ secret: 'wrong-pass-xyz' }),
      testMessage('mail', CONTEXT.now),
      CONTEXT,
    );
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status, 535);
    assert.ok(!outcome.message.includes('wrong-pass-xyz'));
  });
});

describe('syslog (RFC 5424)', () => {
  let collector: SyslogReceiver;
  before(async () => (collector = await startSyslogReceiver()));
  after(() => collector.close());

  const hostileRule = 'night "shift"] \\ x';

  for (const transport of ['udp', 'tcp'] as const) {
    it(`${transport}: one record per message, fields escaped, no line break inside`, async () => {
      const count = collector.records.length;
      const outcome = await sendOnChannel(
        channel({
          type: 'syslog',
          host: '127.0.0.1',
          port: transport === 'udp' ? collector.udpPort : collector.tcpPort,
          transport,
          appName: 'pbx-test',
        }),
        ruleMessage(hostileRule, [event({ title: HOSTILE })], 0, 'pbx-1'),
        { ...CONTEXT, hostname: 'pbx 1\r\nevil' },
      );
      assert.ok(outcome.ok, outcome.message);
      await collector.waitFor(count + 1);
      const record = parse5424(collector.records[count]!);
      assert.equal(record.pri, 16 * 8 + 2, 'local0.crit');
      assert.equal(record.timestamp, '2026-03-01T10:00:00.000Z');
      assert.equal(record.hostname, 'pbx1evil', 'HOSTNAME: printable ASCII, no space or line break');
      assert.equal(record.appName, 'pbx-test');
      assert.equal(record.msgId, 'health');
      assert.match(record.sd, /^\[pbx@32473 severity="critical" recovery="false" events="1" /);
      assert.ok(record.sd.includes('rule="night \\"shift\\"\\] \\\\ x"'), record.sd);
      assert.ok(record.sd.includes('check="bouncer-silent:1"'));
      assert.doesNotMatch(record.msg, /[\r\n]/);
      assert.match(record.msg, /^pbx-1: Critical: fw1 down Bcc: evil@example\.net X-Injected: 1/);
      assert.equal(collector.records.length, count + 1, 'exactly one record');
    });
  }

  it('udp: a long message is cut to 2048 bytes on a character boundary', async () => {
    const count = collector.records.length;
    const outcome = await sendOnChannel(
      channel({ type: 'syslog', host: '127.0.0.1', port: collector.udpPort, transport: 'udp' }),
      ruleMessage(
        'r',
        Array.from({ length: 40 }, (_, i) => event({ id: `x${i}`, title: `é${'ü'.repeat(100)}` })),
      ),
      CONTEXT,
    );
    assert.ok(outcome.ok, outcome.message);
    await collector.waitFor(count + 1);
    const record = collector.records[count]!;
    assert.ok(Buffer.byteLength(record) <= 2048);
    assert.ok(!record.includes('\uFFFD'), 'no character cut in half');
    assert.equal(parse5424(record).pri, 16 * 8 + 2);
  });

  it('tcp: a refused connection is a failure', async () => {
    const outcome = await sendOnChannel(
      channel({ type: 'syslog', host: '127.0.0.1', port: 1, transport: 'tcp' }),
      testMessage('x', CONTEXT.now),
      CONTEXT,
    );
    assert.deepEqual([outcome.ok, outcome.message], [false, 'ECONNREFUSED']);
  });
});
