import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { poll } from '../test-support/bouncer.ts';
import type { BusEvent } from '../bus.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { AmiTestServer, deskPhone100 } from '../test-support/ami-server.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { DETAIL_FIELDS } from './peer-status.ts';

const V3 = '/pbxcore/api/v3/';

/** Polls `probe` until it returns a truthy value; fails with the last value after the timeout. */
async function until<T>(probe: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  do {
    last = await probe();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 25));
  } while (Date.now() < deadline);
  throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
}

describe('peer status over AMI', () => {
  let t: TestServer;
  let ami: AmiTestServer;
  const providers: Record<string, string> = {};
  const busEvents: BusEvent[] = [];

  const get = async (path: string) => (await t.call(`${V3}${path}`)).json;
  const status = () => get('ami:getStatus').then((r) => r.data);
  const peers = async () =>
    Object.fromEntries(
      ((await get('sip:getPeersStatuses')).data as Array<{ id: string; state: string }>).map((p) => [p.id, p.state]),
    );
  const registry = async () =>
    Object.fromEntries(
      ((await get('sip:getRegistry')).data as Array<{ id: string; state: string }>).map((p) => [p.id, p.state]),
    );

  before(async () => {
    ami = await AmiTestServer.start({ username: 'console', secret: 's3cret' });
    ami.endpoints.set('100', deskPhone100());
    ami.endpoints.set('101', { deviceState: 'Unavailable' });
    ami.endpoints.set('103', { deviceState: 'In use', contact: { uri: 'sip:103@192.0.2.7:5060' } });
    t = await startTestServer({ adminPassword: 'peers-test-password' });
    t.server.services.bus.on('security-failure', (e) => busEvents.push(e));
    for (const number of ['100', '101', '102', '103']) {
      const r = await t.call(`${V3}extensions`, {
        method: 'POST',
        body: { number, username: `User ${number}`, secret: 'long-enough-secret' },
      });
      assert.equal(r.status, 201, r.text);
    }
    for (const [name, body] of Object.entries({
      registered: { description: 'Registered trunk', host: 'sip.example.net', username: 'acme' },
      unregistered: { description: 'Unregistered trunk', host: 'sip2.example.net', username: 'bob' },
      disabled: { description: 'Disabled trunk', host: 'sip3.example.net', username: 'carol', disabled: true },
      byUri: { description: 'Matched by URI', host: 'voip.example.org:5060', username: 'dave' },
    })) {
      const r = await t.call(`${V3}providers`, { method: 'POST', body });
      assert.equal(r.status, 201, r.text);
      providers[name] = r.json.data.id;
    }
    ami.registrations.set(providers.registered!, { status: 'Registered' });
    ami.registrations.set(`${providers.unregistered}-REG`, { status: 'Unregistered' });
    ami.registrations.set(providers.disabled!, { status: 'Registered' });
    ami.registrations.set('trunk-dave', {
      status: 'Registered',
      serverUri: 'sip:voip.example.org:5060',
      clientUri: 'sip:dave@voip.example.org',
    });
  });

  after(async () => {
    await t?.close();
    await ami?.close();
  });

  it('serves UNKNOWN and OFF, never invented states, while AMI was never connected', async () => {
    assert.deepEqual(await status(), { enabled: false, connected: false, lastError: null, stateAgeSeconds: null });
    assert.deepEqual(await peers(), { 100: 'UNKNOWN', 101: 'UNKNOWN', 102: 'UNKNOWN', 103: 'UNKNOWN' });
    const list = await get('sip:getRegistry');
    assert.ok(list.data.every((p: { state: string }) => p.state === 'OFF'));
    assert.match(list.messages.info[0], /disabled/);
    const detail = (await get('sip/100:getStatus')).data;
    assert.equal(detail.state, 'UNKNOWN');
    assert.equal(detail.URI, '');
  });

  it('keeps the secret write-only; writing it needs SENSITIVE', async () => {
    const key = createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/ami': 'write' } });
    const headers = { Authorization: `Bearer ${key.key}` };
    const refused = await t.remote(`${V3}ami`, { method: 'PATCH', headers, body: { secret: 'x' } });
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json.messages.error[0], /SENSITIVE/);
    const allowed = await t.remote(`${V3}ami`, { method: 'PATCH', headers, body: { port: 5039 } });
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal(allowed.json.data.port, 5039);
    assert.equal('secret' in allowed.json.data, false);
    const invalid = await t.call(`${V3}ami`, { method: 'PATCH', body: { enabled: true, username: '' } });
    assert.equal(invalid.status, 422);
  });

  it('connects when the settings change and maps peer and registry states', async () => {
    const saved = await t.call(`${V3}ami`, {
      method: 'PUT',
      body: { enabled: true, host: ami.host, port: ami.port, username: 'console', secret: 's3cret' },
    });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(Object.keys(saved.json.data).sort(), ['enabled', 'host', 'port', 'username']);
    const s = await until(async () => {
      const current = await status();
      return current.connected && current.stateAgeSeconds !== null && current;
    });
    assert.equal(s.lastError, null);
    assert.deepEqual(await peers(), { 100: 'OK', 101: 'UNKNOWN', 102: 'UNKNOWN', 103: 'OK' });
    assert.deepEqual(await registry(), {
      [providers.registered!]: 'OK',
      [providers.unregistered!]: 'OFF',
      [providers.disabled!]: 'OFF',
      [providers.byUri!]: 'OK',
    });
    const item = (await get('sip:getRegistry')).data.find((p: { id: string }) => p.id === providers.registered);
    assert.deepEqual(item, { state: 'OK', id: providers.registered, username: 'acme', host: 'sip.example.net' });
    const statuses = await get('providers:getStatuses');
    assert.equal(
      statuses.data.find((p: { id: string }) => p.id === providers.registered).description,
      'Registered trunk',
    );
    assert.equal(statuses.pagination.total, 4);
    const page = await get('sip:getPeersStatuses?limit=2&offset=1');
    assert.deepEqual(
      page.data.map((p: { id: string }) => p.id),
      ['101', '102'],
    );
    assert.equal(page.pagination.hasMore, true);
  });

  it('gives the single-peer detail fields exactly as the SPEC lists them', async () => {
    const detail = await until(async () => {
      const d = (await get('sip/100:getStatus')).data;
      return d.URI && d;
    });
    assert.deepEqual(Object.keys(detail).sort(), [...DETAIL_FIELDS, 'state'].sort());
    assert.ok(Object.values(detail).every((v) => typeof v === 'string'));
    assert.equal(detail.Event, 'ContactStatusDetail');
    assert.equal(detail.URI, 'sip:100@192.0.2.5:5060');
    assert.equal(detail.UserAgent, 'Yealink T46U');
    assert.equal(detail.Status, 'Reachable');
    assert.equal(detail.EndpointName, '100');
    assert.equal(detail.RoundtripUsec, '1234');
    assert.equal(detail.state, 'OK');
    const offline = (await get('sip/101:getStatus')).data;
    assert.equal(offline.state, 'UNKNOWN');
    assert.equal(offline.URI, '');
    const missing = await t.call(`${V3}sip/999:getStatus`);
    assert.equal(missing.status, 404);
    const odd = await t.call(`${V3}sip/1:2:getStatus`);
    assert.equal(odd.status, 400);
  });

  it('refreshes a peer detail on demand and after contact events', async () => {
    ami.endpoints.get('100')!.contact!.userAgent = 'Yealink T54W';
    await until(async () => (await get('sip/100:getStatus')).data.UserAgent === 'Yealink T54W');
    ami.endpoints.set('101', { deviceState: 'Not in use', contact: { uri: 'sip:101@192.0.2.6:5060' } });
    ami.emitEvent({
      Event: 'ContactStatus',
      URI: 'sip:101@192.0.2.6:5060',
      ContactStatus: 'Reachable',
      AOR: '101',
      EndpointName: '101',
    });
    await until(async () => (await peers())['101'] === 'OK');
  });

  it('turns security events into security-failure events and a pbx/sip ban in the bouncer stream', async () => {
    const before = busEvents.length;
    ami.emitEvent({ Event: 'InvalidAccountID', Service: 'IAX2', RemoteAddress: 'IPV4/UDP/198.51.100.4/4569' });
    ami.emitEvent({ Event: 'FailedACL', Service: 'AMI', RemoteAddress: 'IPV4/TCP/198.51.100.5/40000' });
    const { maxretry } = t.server.services.firewall!.state.settings;
    for (let i = 0; i < maxretry; i++) {
      ami.emitEvent({
        Event: 'InvalidPassword',
        Service: 'PJSIP',
        AccountID: '100',
        RemoteAddress: 'IPV4/UDP/203.0.113.9/5060',
      });
    }
    await until(async () => busEvents.length >= before + 2 + maxretry);
    const fresh = busEvents.slice(before);
    assert.deepEqual(fresh[0], {
      type: 'security-failure',
      category: 'iax',
      ip: '198.51.100.4',
      reason: 'InvalidAccountID (IAX2)',
    });
    assert.deepEqual(fresh[1], {
      type: 'security-failure',
      category: 'ami',
      ip: '198.51.100.5',
      reason: 'FailedACL (AMI)',
    });
    assert.ok(
      fresh.slice(2).every((e) => e.type === 'security-failure' && e.category === 'sip' && e.ip === '203.0.113.9'),
    );

    const bouncer = createTestApiKey(t.server.services.db);
    const stream = await poll(t, bouncer.key, '?startup=true');
    const decision = stream.new.find((d) => d.value === '203.0.113.9');
    assert.ok(decision, JSON.stringify(stream));
    assert.equal(decision.scenario, 'pbx/sip');
    assert.equal(decision.origin, 'pbx-fail2ban');
    assert.equal(decision.scope, 'Ip');
  });

  it('answers the legacy endpoints in the legacy envelope', async () => {
    const list = await t.call('/pbxcore/api/sip/getPeersStatuses');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.json.jsonapi, { version: '1.0' });
    assert.equal(list.json.result, true);
    assert.deepEqual(
      list.json.data.find((p: { id: string }) => p.id === '100'),
      { id: '100', state: 'OK' },
    );
    assert.ok(list.json.meta.hash);
    assert.ok(list.headers['e-tag']);

    const reg = await t.call('/pbxcore/api/sip/getRegistry');
    assert.deepEqual(reg.json.jsonapi, { version: '1.0' });
    assert.deepEqual(Object.keys(reg.json.data[0]), ['state', 'id', 'username', 'host']);

    const peer = await t.call('/pbxcore/api/sip/getSipPeer', { method: 'POST', body: { peer: '100' } });
    assert.equal(peer.status, 200, peer.text);
    assert.deepEqual(peer.json.jsonapi, { version: '1.0' });
    assert.equal(peer.json.data.URI, 'sip:100@192.0.2.5:5060');
    assert.equal(peer.json.data.state, 'OK');

    const viaGet = await t.call('/pbxcore/api/sip/getSipPeer', { method: 'GET', body: { peer: 103 } });
    assert.equal(viaGet.status, 200, viaGet.text);
    assert.equal(viaGet.json.data.EndpointName, '103');

    for (const body of [{}, { peer: '' }, undefined]) {
      const bad = await t.call('/pbxcore/api/sip/getSipPeer', { method: 'POST', body });
      assert.equal(bad.status, 400, bad.text);
      assert.match(bad.json.messages.error[0], /"peer"/);
      assert.deepEqual(bad.json.jsonapi, { version: '1.0' });
    }
    const unknown = await t.call('/pbxcore/api/sip/getSipPeer', { method: 'POST', body: { peer: '555' } });
    assert.equal(unknown.status, 404);

    const anonymous = await t.remote('/pbxcore/api/sip/getPeersStatuses');
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.json.jsonapi, { version: '1.0' });
    const bearer = createTestApiKey(t.server.services.db, { fullPermissions: true });
    const withKey = await t.remote('/pbxcore/api/sip/getRegistry', {
      headers: { Authorization: `Bearer ${bearer.key}` },
    });
    assert.equal(withKey.status, 200, withKey.text);

    const login = await t.remote('/admin-cabinet/session/start', {
      method: 'POST',
      headers: { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'login=admin&password=peers-test-password',
    });
    assert.equal(login.status, 200, login.text);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const withSession = await t.remote('/pbxcore/api/sip/getSipPeer', {
      method: 'POST',
      headers: { Cookie: cookie, 'X-Requested-With': 'XMLHttpRequest' },
      body: { peer: '100' },
    });
    assert.equal(withSession.status, 200, withSession.text);
    assert.equal(withSession.json.data.EndpointName, '100');
  });

  it('survives malformed AMI messages', async () => {
    const logins = ami.logins;
    ami.sendRaw('this is not AMI\r\n\r\n');
    ami.sendRaw('Event: InvalidPassword\r\nService: PJSIP\r\nRemoteAddress: IPV4/UDP/not-an-ip/5060\r\n\r\n');
    ami.sendRaw(Buffer.from([0, 1, 2, 0xff, 13, 10, 13, 10]));
    ami.sendRaw('Event: EndpointList\r\nActionID: pbx-console-424242\r\nEventList: Complete\r\n\r\n');
    const s = await status();
    assert.equal(s.connected, true);
    assert.equal((await t.call(`${V3}sip:getPeersStatuses`)).status, 200);
    assert.ok((t.server.services.peers?.amiClient?.malformedMessages ?? 0) >= 2);
    assert.equal(ami.logins, logins);
  });

  it('reconnects after the server drops the link', async () => {
    const logins = ami.logins;
    ami.dropConnections();
    await until(async () => ami.logins > logins && (await status()).connected);
    assert.deepEqual(await peers(), { 100: 'OK', 101: 'OK', 102: 'UNKNOWN', 103: 'OK' });
  });

  it('serves cached, aged state while Asterisk is down, without blocking', async () => {
    await ami.goDown();
    const down = await until(async () => {
      const s = await status();
      return !s.connected && s.lastError && s;
    });
    assert.equal(typeof down.stateAgeSeconds, 'number');
    const asked = ami.actions.length;
    const list = await get('sip:getPeersStatuses');
    assert.equal(ami.sessions, 0, 'answered while Asterisk is still down');
    assert.equal(ami.actions.length, asked, 'from the stored state: Asterisk was asked nothing');
    assert.equal(list.data.find((p: { id: string }) => p.id === '100').state, 'OK');
    assert.match(list.messages.warning[0], /not connected.*cached, \d+ s old/);
    await ami.comeBack();
    await until(async () => (await status()).connected);
  });

  it('forgets every state when AMI is disabled', async () => {
    const r = await t.call(`${V3}ami`, { method: 'PATCH', body: { enabled: false } });
    assert.equal(r.status, 200, r.text);
    await until(async () => ami.sessions === 0);
    assert.deepEqual(await status(), { enabled: false, connected: false, lastError: null, stateAgeSeconds: null });
    assert.deepEqual(await peers(), { 100: 'UNKNOWN', 101: 'UNKNOWN', 102: 'UNKNOWN', 103: 'UNKNOWN' });
    assert.ok(Object.values(await registry()).every((s) => s === 'OFF'));
  });
});
