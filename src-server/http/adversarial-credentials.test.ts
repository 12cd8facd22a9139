import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BusEvent } from '../bus.ts';
import { AmiTestServer } from '../test-support/ami-server.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { startLinkedTestServer } from '../test-support/crowdsec-link.ts';
import { startFakeLapi, type FakeLapi } from '../test-support/fake-lapi.ts';
import { REMOTE, type TestServer } from '../test-support/server.ts';

/**
 * Adversarial category "credential destinations" (issue 28): a caller without SENSITIVE tries to
 * send a stored secret (LAPI machine password, LAPI bouncer key, AMI secret) to a host or identity
 * of its choosing, through every path and verb that writes them: PUT and PATCH of `crowdsec-link`
 * and `ami`, and backup:importConfig. Each attempt must be refused with nothing stored and nothing
 * sent; the same move with the secrets re-entered, or from a SENSITIVE caller, must work.
 */

const V3 = '/pbxcore/api/v3';
const LINK = `${V3}/crowdsec-link`;
const AMI = `${V3}/ami`;
const EXPORT = `${V3}/backup:exportConfig`;
const IMPORT = `${V3}/backup:importConfig`;
const PASSWORD = 'stored machine password 7c1e';
const KEY = 'stored-bouncer-key-0a9d4e';
const AMI_SECRET = 'stored-ami-secret-31f0';

type Attempt = [method: 'PUT' | 'PATCH', body: Record<string, unknown>, message: RegExp];

describe('credential destinations: a stored secret goes only where a SENSITIVE caller, or one who re-entered it, sends it', () => {
  let t: TestServer;
  let lapi: FakeLapi;
  let evilLapi: FakeLapi;
  let asterisk: AmiTestServer;
  let evilAsterisk: AmiTestServer;
  const keys = { link: '', ami: '', backup: '', full: '' };
  const failures: BusEvent[] = [];
  const as = (key: string) => ({ 'x-api-key': key });
  const streamPolls = (fake: FakeLapi) => fake.requests.filter((r) => r.path === '/v1/decisions/stream').length;

  before(async () => {
    [lapi, evilLapi] = await Promise.all([startFakeLapi(), startFakeLapi()]);
    // The attacker's Asterisk accepts the same login, so a leaked secret would show as a login there.
    [asterisk, evilAsterisk] = await Promise.all([
      AmiTestServer.start({ username: 'console', secret: AMI_SECRET }),
      AmiTestServer.start({ username: 'console', secret: AMI_SECRET }),
    ]);
    t = await startLinkedTestServer(lapi.url, {
      machineLogin: 'site',
      machinePassword: PASSWORD,
      pullEnabled: true,
      bouncerKey: KEY,
    });
    t.server.services.bus.on('security-failure', (e) => failures.push(e));
    const ami = await t.call(AMI, {
      method: 'PUT',
      body: { enabled: true, host: asterisk.host, port: asterisk.port, username: 'console', secret: AMI_SECRET },
    });
    assert.equal(ami.status, 200, ami.text);
    await lapi.waitFor(() => streamPolls(lapi) > 0, 'the first pull');
    await asterisk.waitFor(() => asterisk.logins > 0);
    const db = t.server.services.db;
    keys.link = createTestApiKey(db, { allowedPaths: { '/api/v3/crowdsec-link': 'write' } }).key;
    keys.ami = createTestApiKey(db, { allowedPaths: { '/api/v3/ami': 'write' } }).key;
    keys.backup = createTestApiKey(db, { allowedPaths: { '/api/v3/backup': 'write' } }).key;
    keys.full = createTestApiKey(db, { fullPermissions: true }).key;
  });

  after(async () => {
    await t?.close();
    await Promise.all([lapi?.close(), evilLapi?.close(), asterisk?.close(), evilAsterisk?.close()]);
  });

  /** The link still talks to the real LAPI only: an allowed change restarts the pull, which reaches it. */
  async function linkStayedHome(): Promise<void> {
    const stored = (await t.call(LINK)).json.data;
    assert.equal(stored.url, lapi.url, 'the stored url is unchanged');
    assert.equal(stored.machineLogin, 'site', 'the stored login is unchanged');
    const running = t.server.services.crowdsecLink.settings();
    assert.equal(running.url, lapi.url);
    assert.equal(running.machinePassword, PASSWORD);
    assert.equal(running.bouncerKey, KEY);
    const polls = streamPolls(lapi);
    const harmless = await t.remote(LINK, { method: 'PATCH', headers: as(keys.link), body: { siteName: 'site-a' } });
    assert.equal(harmless.status, 200, harmless.text);
    await lapi.waitFor(() => streamPolls(lapi) > polls, 'the pull restarted by an allowed change');
    assert.deepEqual(evilLapi.requests, [], 'the other LAPI received no request');
  }

  /** AMI still logs in to the real Asterisk only: turning it off and on makes it log in again there. */
  async function amiStayedHome(): Promise<void> {
    const stored = (await t.call(AMI)).json.data;
    assert.deepEqual([stored.host, stored.port, stored.username], [asterisk.host, asterisk.port, 'console']);
    const logins = asterisk.logins;
    for (const enabled of [false, true])
      assert.equal((await t.remote(AMI, { method: 'PATCH', headers: as(keys.ami), body: { enabled } })).status, 200);
    await asterisk.waitFor(() => asterisk.logins > logins);
    assert.equal(evilAsterisk.logins, 0, 'the other Asterisk saw no login');
    assert.equal(JSON.stringify(evilAsterisk.actions).includes(AMI_SECRET), false);
  }

  /** The server's own export (no secrets) with `change` applied to one section: what an attacker's file looks like. */
  async function exportWith(section: 'crowdsecLink' | 'ami', change: Record<string, unknown>) {
    const exported = (await t.call(EXPORT)).json.data as Record<string, Record<string, unknown>>;
    return { ...exported, [section]: { ...exported[section], ...change } };
  }

  async function refuse(path: string, key: string, attempts: Attempt[]): Promise<void> {
    for (const [method, body, message] of attempts) {
      const answer = await t.remote(path, { method, headers: as(key), body });
      assert.equal(answer.status, 403, `${method} ${JSON.stringify(body)}: ${answer.text}`);
      assert.match(answer.json.messages.error.join(' '), message, `${method} ${JSON.stringify(body)}`);
    }
  }

  it('crowdsec-link PUT and PATCH: moving url or machineLogin without SENSITIVE is 403 naming the field', async () => {
    const current = (await t.call(LINK)).json.data as Record<string, unknown>;
    const moveUrl = /Changing url makes the server send the stored machinePassword and bouncerKey .*SENSITIVE/;
    const moveLogin = /Changing machineLogin makes the server send the stored machinePassword .*SENSITIVE/;
    await refuse(LINK, keys.link, [
      ['PATCH', { url: evilLapi.url }, moveUrl],
      ['PUT', { ...current, url: evilLapi.url }, moveUrl],
      ['PATCH', { url: evilLapi.url, enabled: false }, moveUrl],
      ['PATCH', { url: lapi.url.replace('http:', 'https:') }, moveUrl],
      ['PATCH', { url: `${lapi.url}elsewhere/` }, moveUrl],
      ['PATCH', { machineLogin: 'attacker' }, moveLogin],
      ['PUT', { ...current, machineLogin: 'attacker' }, moveLogin],
      ['PATCH', { url: evilLapi.url, machineLogin: 'attacker' }, /Changing url, machineLogin /],
      // Re-entering one secret does not release the other.
      ['PATCH', { url: evilLapi.url, machinePassword: PASSWORD }, /Changing url .*stored bouncerKey /],
      ['PUT', { ...current, url: evilLapi.url, bouncerKey: KEY }, /Changing url .*stored machinePassword /],
    ]);
    await linkStayedHome();
  });

  it('a secret that is not the stored one is setting it, which needs SENSITIVE, and counts as a failed credential', async () => {
    const before = failures.length;
    await refuse(LINK, keys.link, [
      [
        'PATCH',
        { url: evilLapi.url, machinePassword: 'a guess', bouncerKey: KEY },
        /^machinePassword: setting the machinePassword needs the SENSITIVE level/,
      ],
      ['PATCH', { bouncerKey: 'another guess' }, /^bouncerKey: setting the bouncerKey needs the SENSITIVE level/],
    ]);
    assert.equal(failures.length, before + 2);
    assert.deepEqual(failures.at(-1), {
      type: 'security-failure',
      category: 'http',
      ip: REMOTE,
      reason: 'wrong CrowdSec link secret re-entered',
    });
    await linkStayedHome();
  });

  it('backup:importConfig: the same moves in a file without the secrets are 403, for the link and AMI', async () => {
    const files: Array<[Record<string, unknown>, RegExp]> = [
      [await exportWith('crowdsecLink', { url: evilLapi.url }), /^crowdsecLink: changing url .*machinePassword and/],
      [await exportWith('crowdsecLink', { machineLogin: 'attacker' }), /^crowdsecLink: changing machineLogin /],
      [
        await exportWith('crowdsecLink', { url: evilLapi.url, machinePassword: 'a guess' }),
        /^crowdsecLink\.machinePassword: setting .*SENSITIVE/,
      ],
      [await exportWith('ami', { port: evilAsterisk.port }), /^ami: changing port .*stored AMI secret/],
      [await exportWith('ami', { username: 'other' }), /^ami: changing username /],
      [await exportWith('ami', { host: 'localhost', secret: 'a guess' }), /^ami\.secret: setting the AMI secret/],
    ];
    for (const [config, message] of files) {
      const answer = await t.remote(IMPORT, { method: 'POST', headers: as(keys.backup), body: { config } });
      assert.equal(answer.status, 403, answer.text);
      assert.match(answer.json.messages.error.join(' '), message);
    }
    await linkStayedHome();
    await amiStayedHome();
  });

  it('ami PUT and PATCH: moving host, port or username without SENSITIVE is 403 naming the field', async () => {
    const moved = /Changing (host|port|username)(, \w+)* makes the server send the stored AMI secret/;
    await refuse(AMI, keys.ami, [
      ['PATCH', { port: evilAsterisk.port }, moved],
      ['PATCH', { host: 'localhost', port: evilAsterisk.port }, moved],
      ['PATCH', { username: 'other' }, moved],
      ['PUT', { enabled: true, host: asterisk.host, port: evilAsterisk.port, username: 'console' }, moved],
      ['PATCH', { port: evilAsterisk.port, secret: 'a guess' }, /^secret: setting the AMI secret needs the SENSITIVE/],
    ]);
    await amiStayedHome();
  });

  it('control characters, spaces and user:password@ in the url or host are 422 naming the field, for every caller and path', async () => {
    const badUrls: Array<[string, RegExp]> = [
      ['http://127.0.0.1:1/\r\nX-Injected: 1', /control characters/],
      ['http://127.0.0.1:1/\n', /control characters/],
      ['http://127.0.0.1:1/\t', /control characters/],
      ['http://127.0.0.1:1/\u007f', /control characters/],
      ['http://127.0.0.1:1/\u0000', /control characters/],
      [' http://127.0.0.1:1/', /control characters, line breaks or spaces/],
      ['http://127.0.0.1:1/a b', /spaces/],
      ['http://admin:hunter2@127.0.0.1:1/', /user name or password .*machinePassword/],
      ['http://admin@127.0.0.1:1/', /user name or password/],
    ];
    const before = (await t.call(LINK)).json.data;
    for (const [url, rule] of badUrls) {
      const label = JSON.stringify(url);
      for (const method of ['PATCH', 'PUT']) {
        // From loopback (SENSITIVE) and with the secrets re-entered: validity is not a matter of rights.
        const answer = await t.call(LINK, { method, body: { ...before, url, machinePassword: PASSWORD } });
        assert.equal(answer.status, 422, `${method} ${label}: ${answer.text}`);
        assert.match(answer.json.messages.error.join(' '), /^url: /, label);
        assert.match(answer.json.messages.error.join(' '), rule, label);
      }
      const config = await exportWith('crowdsecLink', { url });
      const imported = await t.call(IMPORT, { method: 'POST', body: { config } });
      assert.equal(imported.status, 422, `import ${label}: ${imported.text}`);
      assert.ok(
        imported.json.messages.error.some((e: string) => /^crowdsecLink\.url: /.test(e) && rule.test(e)),
        imported.text,
      );
    }
    for (const host of ['127.0.0.1\r\nAction: Originate', '127.0.0.1\n', ' 127.0.0.1', '127.0.0.1\u007f']) {
      const label = JSON.stringify(host);
      const answer = await t.call(AMI, { method: 'PATCH', body: { host } });
      assert.equal(answer.status, 422, `${label}: ${answer.text}`);
      assert.match(answer.json.messages.error.join(' '), /^host: must not contain control characters/, label);
      const imported = await t.call(IMPORT, { method: 'POST', body: { config: await exportWith('ami', { host }) } });
      assert.equal(imported.status, 422, imported.text);
      assert.match(imported.json.messages.error.join(' '), /ami\.host: must not contain control characters/);
    }
    assert.deepEqual((await t.call(LINK)).json.data, before, 'nothing was stored');
    await linkStayedHome();
    await amiStayedHome();
  });

  it('the same moves work with the secrets re-entered in the request, or from a SENSITIVE caller', async () => {
    // A write key that knows both secrets: sending them to the new LAPI leaks nothing it did not know.
    const moved = await t.remote(LINK, {
      method: 'PATCH',
      headers: as(keys.link),
      body: { url: evilLapi.url, machinePassword: PASSWORD, bouncerKey: KEY },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.ok(!('machinePassword' in moved.json.data) && !('bouncerKey' in moved.json.data));
    await evilLapi.waitFor(() => streamPolls(evilLapi) > 0, 'a pull from the chosen LAPI');
    assert.equal(evilLapi.requests.find((r) => r.path === '/v1/decisions/stream')?.headers['x-api-key'], KEY);

    // The localhost bypass and a full-permission key hold SENSITIVE: no re-entry needed.
    assert.equal((await t.call(LINK, { method: 'PATCH', body: { url: lapi.url } })).status, 200);
    const login = await t.remote(LINK, {
      method: 'PATCH',
      headers: as(keys.link),
      body: { machineLogin: 'site-2', machinePassword: PASSWORD },
    });
    assert.equal(login.status, 200, `the login guards the password only: ${login.text}`);
    const full = await t.remote(LINK, { method: 'PATCH', headers: as(keys.full), body: { machineLogin: 'site' } });
    assert.equal(full.status, 200, full.text);

    // A backup file that carries the stored secrets re-enters them.
    const withSecrets = (await t.call(`${EXPORT}?secrets=true`)).json.data as Record<string, Record<string, unknown>>;
    const file = {
      ...withSecrets,
      crowdsecLink: { ...withSecrets.crowdsecLink, url: evilLapi.url },
      ami: { ...withSecrets.ami, port: evilAsterisk.port },
    };
    const imported = await t.remote(IMPORT, { method: 'POST', headers: as(keys.backup), body: { config: file } });
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual(imported.json.data.sections.crowdsecLink.changed, ['url']);
    await evilAsterisk.waitFor(() => evilAsterisk.logins > 0);
    const back = await t.call(IMPORT, { method: 'POST', body: { config: withSecrets } });
    assert.equal(back.status, 200, back.text);
    assert.equal(t.server.services.crowdsecLink.settings().url, lapi.url);
  });
});
