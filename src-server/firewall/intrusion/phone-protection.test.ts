import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { BusEvent } from '../../bus.ts';
import { ManualClock } from '../../clock.ts';
import { AmiTestServer } from '../../test-support/ami-server.ts';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { poll } from '../../test-support/bouncer.ts';
import { captureLogs } from '../../test-support/captured-logs.ts';
import { closeNow, listenOnLoopback } from '../../test-support/loopback-server.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';
import type { AccountFlag } from '../../wire/types.ts';

const V3 = '/pbxcore/api/v3/';
const OFFICE = '198.51.100.10';
const NEIGHBOUR = '198.51.100.11';
const HOME_V6 = '2001:db8::5';

type Truthy<T> = Exclude<T, false | null | undefined | '' | 0>;

/** Polls `probe` until it returns a truthy value; fails with the last value after the timeout. */
async function until<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  do {
    last = await probe();
    if (last) return last as Truthy<T>;
    await new Promise((r) => setTimeout(r, 25));
  } while (Date.now() < deadline);
  throw new Error(`${what}: not met in ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
}

interface Protection {
  enabled: boolean;
  lingerMinutes: number;
  addresses: Array<{
    address: string;
    phones: Array<{ endpoint: string; registeredSince: string; endedAt: string | null }>;
  }>;
  flags: Array<AccountFlag & { text: string }>;
}

describe('registered phones are never cut off', { timeout: 180_000 }, () => {
  let t: TestServer;
  let ami: AmiTestServer;
  let lapi: Server;
  let upstream: Array<Record<string, unknown>> = [];
  const clock = new ManualClock(Date.now());
  const logs = captureLogs('info');
  const flagEvents: AccountFlag[] = [];

  const protection = async (): Promise<Protection> => {
    const answer = await t.call(`${V3}firewall:getPhoneProtection`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.data as Protection;
  };
  const lookup = async (ip: string) => {
    const answer = await t.call(`${V3}firewall:lookup?ip=${encodeURIComponent(ip)}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.data as {
      blocked: boolean;
      decisions: Array<{ value: string; source: string }>;
      protections: Array<{ kind: string; value: string; phones?: string[]; note?: string }>;
    };
  };
  const fail = (account: string, address: string, times: number) => {
    const remote = address.includes(':') ? `IPV6/UDP/[${address}]/5060` : `IPV4/UDP/${address}/5060`;
    for (let i = 0; i < times; i++)
      ami.emitEvent({ Event: 'InvalidPassword', Service: 'PJSIP', AccountID: account, RemoteAddress: remote });
  };
  const contactStatus = (endpoint: string, uri: string, status: string) =>
    ami.emitEvent({ Event: 'ContactStatus', URI: uri, ContactStatus: status, AOR: endpoint, EndpointName: endpoint });
  const flagOf = (account: string, state: AccountFlag['state']) =>
    until(() => flagEvents.find((f) => f.account === account && f.state === state), `${account} ${state}`);
  const banned = (ip: string) => t.server.services.firewall.bans.isBanned(ip);

  before(async () => {
    ami = await AmiTestServer.start();
    // An office behind one NAT address (two phones), and a home phone on IPv6.
    ami.endpoints.set('101', { deviceState: 'Not in use', contact: { uri: `sip:101@${OFFICE}:5060` } });
    ami.endpoints.set('103', { deviceState: 'Not in use', contact: { uri: `sip:103@${OFFICE}:5062;ob` } });
    ami.endpoints.set('205', { deviceState: 'Not in use', contact: { uri: `sip:205@[${HOME_V6}]:5060` } });
    ami.endpoints.set('102', { deviceState: 'Unavailable' });
    lapi = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/v1/decisions/stream')) {
        const answer = { new: upstream, deleted: null };
        upstream = [];
        return res.end(JSON.stringify(answer));
      }
      res.end('{}');
    });
    t = await startTestServer({ clock, logger: logs.logger });
    t.server.services.bus.on('account-flagged', (e: Extract<BusEvent, { type: 'account-flagged' }>) =>
      flagEvents.push(e.flag),
    );
    const rules = await t.call(`${V3}fail2ban`, { method: 'PATCH', body: { maxretry: 3 } });
    assert.equal(rules.status, 200, rules.text);
    const saved = await t.call(`${V3}ami`, {
      method: 'PUT',
      body: { enabled: true, host: ami.host, port: ami.port, username: 'admin', secret: 'amp111' },
    });
    assert.equal(saved.status, 200, saved.text);
  });

  after(async () => {
    await t?.close();
    await ami?.close();
    if (lapi) await closeNow(lapi);
  });

  it('knows, from the contacts read at connect, which addresses host registered phones and since when', async () => {
    const found = await until(async () => {
      const p = await protection();
      return p.addresses.length === 2 && p;
    }, 'both addresses protected');
    assert.equal(found.enabled, true);
    assert.equal(found.lingerMinutes, 5);
    assert.deepEqual(
      found.addresses.map((a) => [a.address, a.phones.map((p) => p.endpoint)]),
      [
        [OFFICE, ['101', '103']],
        [HOME_V6, ['205']],
      ],
    );
    assert.ok(found.addresses.every((a) => a.phones.every((p) => p.endedAt === null && Date.parse(p.registeredSince))));
    assert.deepEqual(found.flags, []);
  });

  it('flags an account failing behind a registered address and never bans it; a failing neighbour is banned', async () => {
    fail('102', OFFICE, 3);
    fail('300', NEIGHBOUR, 3);
    const flag = await flagOf('102', 'flagged');
    await until(() => banned(NEIGHBOUR), 'the neighbour banned');
    assert.deepEqual(
      { ...flag, at: undefined },
      {
        account: '102',
        address: OFFICE,
        registeredAccounts: ['101', '103'],
        state: 'flagged',
        failures: 3,
        at: undefined,
      },
    );
    fail('102', OFFICE, 10);
    fail('', OFFICE, 3);
    await flagOf('(no account)', 'flagged');
    assert.equal(banned(OFFICE), false, 'no failure from the office bans it');

    const office = await lookup(OFFICE);
    assert.equal(office.blocked, false);
    assert.deepEqual(office.protections, [
      {
        kind: 'registered-phones',
        value: OFFICE,
        phones: ['101', '103'],
        note: 'protected: 2 registered phones, 101 and 103',
      },
    ]);
    assert.equal((await lookup(NEIGHBOUR)).blocked, true);

    const { flags } = await protection();
    const shown = flags.find((f) => f.account === '102');
    assert.equal(shown?.text, 'Account 102 fails from 198.51.100.10, where 101 and 103 are registered');
    const warned = logs.lines.find((l) => l.level === 40 && l.msg.startsWith('Account 102 fails from 198.51.100.10'));
    assert.ok(warned, 'a warn line names the account and the address');
    const audit = await until(async () => {
      const r = await t.call(`${V3}audit-log?kind=account-flagged`);
      return (r.json.data as Array<{ actor: string; address: string; reason: string }>).find((e) => e.actor === '102');
    }, 'the audit entry');
    assert.equal(audit.address, OFFICE);
    assert.match(audit.reason, /Account 102 fails from 198\.51\.100\.10, where 101, 103 registered/);
  });

  it('clears the flag when the account registers (ContactStatus)', async () => {
    ami.endpoints.set('102', { deviceState: 'Not in use', contact: { uri: `sip:102@${OFFICE}:5064` } });
    contactStatus('102', `sip:102@${OFFICE}:5064`, 'Created');
    const cleared = await flagOf('102', 'cleared');
    assert.equal(cleared.address, OFFICE);
    const p = await until(async () => {
      const current = await protection();
      return !current.flags.some((f) => f.account === '102') && current;
    }, 'the flag gone from the list');
    assert.deepEqual(
      p.addresses.find((a) => a.address === OFFICE)?.phones.map((x) => x.endpoint),
      ['101', '102', '103'],
    );
  });

  it('clears a flag once findtime passes without failures', async () => {
    fail('104', OFFICE, 3);
    await flagOf('104', 'flagged');
    const { findtime } = t.server.services.firewall.state.settings;
    clock.advance(findtime * 1000 + 1000);
    const cleared = await flagOf('104', 'cleared');
    assert.equal(cleared.account, '104');
    assert.equal(banned(OFFICE), false);
  });

  it('does not enforce a pulled upstream decision covering a registered address (counted and shown)', async () => {
    const url = await listenOnLoopback(lapi);
    const decision = (id: number, value: string, scope = 'Ip') => ({
      id,
      origin: 'cscli',
      type: 'ban',
      scope,
      value,
      duration: '3h',
      scenario: 'crowdsecurity/ssh-bf',
    });
    upstream = [
      decision(1, OFFICE),
      decision(2, '198.51.100.0/28', 'Range'),
      decision(3, '203.0.113.50'),
      decision(4, '203.0.113.60'),
    ];
    const saved = await t.call(`${V3}crowdsec-link`, {
      method: 'PUT',
      body: {
        enabled: true,
        url,
        pushEnabled: false,
        pullEnabled: true,
        bouncerKey: 'k'.repeat(40),
        pullIntervalSeconds: 1,
      },
    });
    assert.equal(saved.status, 200, saved.text);
    const pull = await until(async () => {
      const s = (await t.call(`${V3}crowdsec-link:getStatus`)).json.data.pull;
      return s.decisions === 4 && s;
    }, 'the decisions pulled');
    assert.equal(pull.skipped['registered phones'], 2);
    const bouncer = createTestApiKey(t.server.services.db);
    const values = async () => (await poll(t, bouncer.key, '?startup=true')).new.map((d) => d.value);
    const enforced = await until(async () => {
      const list = await values();
      return list.includes('203.0.113.50') && list;
    }, 'the other decisions enforced');
    assert.ok(!enforced.includes(OFFICE) && !enforced.includes('198.51.100.0/28'), JSON.stringify(enforced));
    const listed = (await t.call(`${V3}firewall:getBannedIps?category=upstream`)).json.data as Array<{ ip: string }>;
    assert.deepEqual(listed.map((b) => b.ip).sort(), ['203.0.113.50', '203.0.113.60']);
    assert.deepEqual((await lookup(OFFICE)).decisions, []);

    // A phone that registers later lifts the decision covering its address at the next pull.
    ami.endpoints.set('106', { deviceState: 'Not in use', contact: { uri: 'sip:106@203.0.113.60:5060' } });
    contactStatus('106', 'sip:106@203.0.113.60:5060', 'Reachable');
    await until(async () => !(await values()).includes('203.0.113.60'), 'the decision lifted');
    assert.deepEqual((await lookup('203.0.113.60')).decisions, []);
    const off = await t.call(`${V3}crowdsec-link`, { method: 'PATCH', body: { enabled: false } });
    assert.equal(off.status, 200, off.text);
  });

  it('answers 409 naming the phones to a manual ban that would cut them off, and stores nothing', async () => {
    const before = (await t.call(`${V3}firewall:getBanLog`)).json.pagination.total as number;
    const one = await t.post(`${V3}firewall:banIp`, { ip: OFFICE });
    assert.equal(one.status, 409, one.text);
    assert.match(one.json.messages.error[0], /198\.51\.100\.10 \(phones 101, 102 and 103\)/);
    assert.match(one.json.messages.error[0], /confirmCutOff/);
    const range = await t.post(`${V3}firewall:banIp`, { ip: '198.51.100.0/24', reason: 'scan' });
    assert.equal(range.status, 409, range.text);
    assert.match(range.json.messages.error[0], /would cut off registered phones at 198\.51\.100\.10/);
    const badFlag = await t.post(`${V3}firewall:banIp`, { ip: OFFICE, confirmCutOff: 'yes' });
    assert.equal(badFlag.status, 422, badFlag.text);
    assert.match(badFlag.json.messages.error.join(' '), /confirmCutOff/);
    assert.equal((await t.call(`${V3}firewall:getBanLog`)).json.pagination.total, before, 'nothing stored');
    assert.equal(banned(OFFICE), false);
    // Elsewhere a ban needs no confirmation.
    assert.equal((await t.post(`${V3}firewall:banIp`, { ip: '192.0.2.200' })).status, 201);

    const confirmed = await t.post(`${V3}firewall:banIp`, { ip: OFFICE, confirmCutOff: true, duration: '1h' });
    assert.equal(confirmed.status, 201, confirmed.text);
    await until(() => banned(OFFICE), 'the confirmed ban in force');
    assert.equal((await t.post(`${V3}firewall:unbanIp`, { ip: OFFICE })).status, 200);
    await until(() => !banned(OFFICE), 'lifted');
  });

  it('answers 409 naming the phones to an import that covers them, and imports nothing; a dry run warns', async () => {
    const content = '203.0.113.77\n198.51.100.0/25\n';
    const refused = await t.post(`${V3}firewall:importBans`, { content });
    assert.equal(refused.status, 409, refused.text);
    assert.match(
      refused.json.messages.error[0],
      /^Nothing was imported: the list would cut off registered phones at 198\.51\.100\.10 \(phones 101, 102 and 103\)/,
    );
    assert.equal((await lookup('203.0.113.77')).blocked, false, 'nothing imported');
    const dry = await t.post(`${V3}firewall:importBans`, { content, dryRun: true });
    assert.equal(dry.status, 200, dry.text);
    assert.match(dry.json.messages.warning[0], /^Importing it would cut off registered phones at 198\.51\.100\.10/);
    const done = await t.post(`${V3}firewall:importBans`, { content, confirmCutOff: '1' });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json.data.added, 2);
    assert.equal((await lookup('203.0.113.77')).blocked, true);
    for (const ip of ['203.0.113.77', '198.51.100.0/25'])
      assert.equal((await t.post(`${V3}firewall:unbanIp`, { ip })).status, 200);
  });

  it('keeps an address protected for the linger after its last registration ends, then failures ban it', async () => {
    ami.endpoints.delete('205');
    contactStatus('205', `sip:205@[${HOME_V6}]:5060`, 'Removed');
    const ended = await until(async () => {
      const home = (await protection()).addresses.find((a) => a.address === HOME_V6);
      return home?.phones[0]?.endedAt && home;
    }, 'the registration ended');
    assert.deepEqual(
      ended.phones.map((p) => p.endpoint),
      ['205'],
    );
    fail('205', HOME_V6, 3);
    await flagOf('205', 'flagged');
    assert.equal(banned(HOME_V6), false, 'within the linger');
    clock.advance(5 * 60_000 + 1000);
    fail('205', HOME_V6, 3);
    await until(() => banned(HOME_V6), 'banned once the linger is over');
  });

  it('refuses settings out of bounds with 422 naming the field, and can be turned off', async () => {
    for (const body of [
      { registeredLingerMinutes: 61 },
      { registeredLingerMinutes: -1 },
      { registeredLingerMinutes: 2.5 },
      { registeredLingerMinutes: 'ten' },
      { protectRegistered: 'yes' },
    ]) {
      const answer = await t.call(`${V3}fail2ban`, { method: 'PATCH', body });
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(answer.json.messages.error.join(' '), new RegExp(Object.keys(body)[0]!));
    }
    const stored = (await t.call(`${V3}fail2ban`)).json.data;
    assert.equal(stored.registeredLingerMinutes, 5);
    assert.equal(stored.protectRegistered, true);

    const off = await t.call(`${V3}fail2ban`, {
      method: 'PATCH',
      body: { protectRegistered: false, registeredLingerMinutes: 60 },
    });
    assert.equal(off.status, 200, off.text);
    assert.equal((await protection()).addresses.length, 0, 'nothing is protected while off');
    fail('109', OFFICE, 3);
    await until(() => banned(OFFICE), 'the office banned with the protection off');
  });
});
