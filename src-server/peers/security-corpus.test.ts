import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { BusEvent } from '../bus.ts';
import { ManualClock } from '../clock.ts';
import { AmiTestServer } from '../test-support/ami-server.ts';
import { AMI_SECURITY_CORPUS, securityEventWire } from '../test-support/ami-security-corpus.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { BAN_CATEGORIES } from '../firewall/model/index.ts';
import { DROPPED_LOG_INTERVAL_MS } from './dropped-events.ts';

const V3 = '/pbxcore/api/v3/';

/** Polls `probe` until it holds (the AMI link is a real socket: events arrive when they arrive). */
async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`not reached: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A counted failure written last: once it is on the bus, everything sent before it was read. */
const sentinel = (n: number) =>
  securityEventWire('InvalidPassword', {
    service: 'PJSIP',
    account: 'sentinel',
    session: `s${n}`,
    local: 'IPV4/UDP/192.0.2.5/5060',
    remote: `IPV4/UDP/192.0.2.${200 + n}/5060`,
  });

describe('AMI security events, the real path (AMI double → client → parser → detector → bans)', () => {
  const clock = new ManualClock(Date.parse('2026-11-27T21:00:00Z'));
  const logLines: Array<{ msg: string; dropped?: number; problem?: string }> = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  );
  const failures: Array<Extract<BusEvent, { type: 'security-failure' }>> = [];
  let t: TestServer;
  let ami: AmiTestServer;
  let sentinels = 0;
  /** Sends raw bytes, then a sentinel failure, and waits for the sentinel on the bus. */
  const sendAndSettle = async (bytes: string | Buffer) => {
    ami.sendRaw(bytes);
    const n = ++sentinels;
    ami.sendRaw(sentinel(n));
    await until(() => failures.some((f) => f.ip === `192.0.2.${200 + n}`), `sentinel ${n}`);
  };
  const droppedLines = () => logLines.filter((l) => l.msg === 'AMI input dropped');

  before(async () => {
    ami = await AmiTestServer.start({ username: 'console', secret: 's3cret' });
    t = await startTestServer({ clock, logger });
    t.server.services.bus.on('security-failure', (e) => failures.push(e));
    const policy = await t.call(`${V3}fail2ban`, { method: 'PATCH', body: { maxretry: 1, bantime: 86_400 } });
    assert.equal(policy.status, 200, policy.text);
    const link = await t.call(`${V3}ami`, {
      method: 'PATCH',
      body: { enabled: true, host: ami.host, port: ami.port, username: 'console', secret: 's3cret' },
    });
    assert.equal(link.status, 200, link.text);
    await until(() => ami.sessions === 1 && t.server.services.peers!.connected, 'AMI login');
  });

  after(async () => {
    await t?.close();
    await ami?.close();
  });

  it('counts, categorises and bans every corpus sample as expected, and nothing else', async () => {
    const before = failures.length;
    await sendAndSettle(AMI_SECURITY_CORPUS.map((s) => s.wire).join(''));
    const malformed = AMI_SECURITY_CORPUS.filter((s) => !s.expected.counted && s.expected.malformed).length;
    assert.equal(t.server.services.peers!.dropped.total, malformed);
    assert.equal(droppedLines().length, 1, 'the malformed samples logged one line');
    const seen = failures.slice(before, -1);
    const counted = AMI_SECURITY_CORPUS.filter((s) => s.expected.counted);
    assert.equal(seen.length, counted.length);
    counted.forEach((sample, i) => {
      const expected = sample.expected as Extract<typeof sample.expected, { counted: true }>;
      const event = seen[i]!;
      assert.deepEqual([event.category, event.ip], [expected.category, expected.address], sample.source);
      if (expected.account) assert.ok(event.reason.includes(`account "${expected.account}"`), sample.source);
      else assert.ok(!event.reason.includes('account'), sample.source);
    });
    const bans = t.server.services.firewall!.bans;
    for (const sample of AMI_SECURITY_CORPUS) {
      const banned = BAN_CATEGORIES.filter((c) => bans.get(c, sample.address));
      const expected = sample.expected.counted ? [sample.expected.category] : [];
      assert.deepEqual(banned, expected, sample.source);
    }
  });

  it('bans an IPv4-mapped source as its IPv4 form, and no longer counts it once that form is banned', async () => {
    const before = failures.length;
    const mapped = (remote: string) =>
      securityEventWire('InvalidAccountID', {
        service: 'PJSIP',
        account: 'scan',
        session: 'm',
        local: 'IPV6/UDP/[2001:db8:ff::5]/5060',
        remote,
      });
    await sendAndSettle(mapped('IPV6/UDP/[::ffff:203.0.113.250]/5060'));
    const bans = t.server.services.firewall!.bans;
    assert.ok(bans.get('sip', '203.0.113.250'), 'banned as 203.0.113.250');
    assert.equal(bans.get('sip', '::ffff:203.0.113.250'), undefined, 'never as the mapped text');
    const firstBan = bans.get('sip', '203.0.113.250')!;
    await sendAndSettle(mapped('IPV6/UDP/[::ffff:203.0.113.250]/5060') + mapped('IPV4/UDP/203.0.113.250/5060'));
    assert.equal(failures.slice(before).filter((f) => f.ip === '203.0.113.250').length, 3);
    assert.deepEqual(bans.get('sip', '203.0.113.250'), firstBan, 'one ban, not re-banned by its mapped form');
  });

  it('drops a 1 MB event, an event over 1 MiB and broken fields: nothing banned, logged once a minute, link alive', async () => {
    const banCount = () => t.server.services.firewall!.bans.active().length;
    const bansBefore = banCount();
    clock.advance(DROPPED_LOG_INTERVAL_MS); // the corpus's malformed samples logged a line a moment ago
    const linesBefore = droppedLines().length;
    const huge = securityEventWire('InvalidPassword', {
      service: 'PJSIP',
      account: 'x'.repeat(1_000_000),
      session: 'h',
      local: 'IPV4/UDP/192.0.2.5/5060',
      remote: 'IPV4/UDP/203.0.113.251/5060',
    });
    const overLimit = `Event: InvalidPassword\r\nService: PJSIP\r\nRemoteAddress: IPV4/UDP/203.0.113.252/5060\r\nAccountID: ${'y'.repeat(1_100_000)}\r\n\r\n`;
    const broken = [
      'Event: InvalidPassword\r\nService: PJSIP\r\nRemoteAddress: IPV4/UDP/203.0.113.253/\r\n\r\n',
      'Event: FailedACL\r\nRemoteAddress: IPV4/UDP/203.0.113.254/5060\r\n\r\n',
      'Event: ChallengeResponseFailed\r\nService: SIP\r\n\r\n',
      'not an AMI message at all\r\n\r\n',
    ].join('');
    await sendAndSettle(huge + overLimit + broken);
    assert.equal(banCount(), bansBefore + 1, 'only the sentinel was banned');
    for (const ip of ['203.0.113.251', '203.0.113.252', '203.0.113.253', '203.0.113.254'])
      assert.deepEqual(t.server.services.firewall!.bans.forIp(ip), [], ip);
    const peers = t.server.services.peers!;
    assert.equal(peers.dropped.total >= 6, true, `dropped ${peers.dropped.total}`);
    assert.equal(droppedLines().length, linesBefore + 1, 'one log line for the whole burst');

    await sendAndSettle(broken);
    assert.equal(droppedLines().length, linesBefore + 1, 'still one within the minute');
    clock.advance(DROPPED_LOG_INTERVAL_MS);
    await sendAndSettle(broken);
    assert.equal(droppedLines().length, linesBefore + 2, 'a second line a minute later');
    assert.ok((droppedLines().at(-1)!.dropped ?? 0) >= 4, 'the line counts what it summarises');
    assert.equal(peers.connected, true);
    assert.equal(ami.logins, 1, 'the link was never dropped');
  });
});
