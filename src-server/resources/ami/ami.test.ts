import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BusEvent } from '../../bus.ts';
import { AmiTestServer } from '../../test-support/ami-server.ts';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { REMOTE, startTestServer, type TestServer } from '../../test-support/server.ts';

const AMI = '/pbxcore/api/v3/ami';
const SECRET = 'stored-ami-secret';

/** Every byte any listener received, as text, so a secret cannot hide in an odd field. */
const received = (server: AmiTestServer) => JSON.stringify(server.actions);

describe('the stored AMI secret only goes where a SENSITIVE caller sent it', () => {
  let t: TestServer;
  let asterisk: AmiTestServer;
  let attacker: AmiTestServer;
  let writeKey: string;
  const failures: BusEvent[] = [];
  const headers = () => ({ 'x-api-key': writeKey });

  before(async () => {
    asterisk = await AmiTestServer.start({ username: 'console', secret: SECRET });
    // The attacker's listener accepts any login, so a leaked secret would be recorded in `actions`.
    attacker = await AmiTestServer.start({ username: 'console', secret: SECRET });
    t = await startTestServer();
    t.server.services.bus.on('security-failure', (e) => failures.push(e));
    const saved = await t.call(AMI, {
      method: 'PUT',
      body: { enabled: true, host: asterisk.host, port: asterisk.port, username: 'console', secret: SECRET },
    });
    assert.equal(saved.status, 200, saved.text);
    await asterisk.waitFor(() => asterisk.logins > 0);
    writeKey = createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/ami': 'write' } }).key;
  });

  after(async () => {
    await t?.close();
    await asterisk?.close();
    await attacker?.close();
  });

  it('a write key without SENSITIVE may not move host, port or username (PATCH or PUT): 403', async () => {
    const attempts: Array<[string, Record<string, unknown>, RegExp]> = [
      ['PATCH', { port: attacker.port }, /Changing port makes the server send the stored AMI secret/],
      ['PATCH', { host: 'localhost', port: attacker.port }, /Changing host, port /],
      ['PATCH', { username: 'other' }, /Changing username /],
      ['PUT', { enabled: true, host: attacker.host, port: attacker.port, username: 'console' }, /Changing port /],
      ['PATCH', { port: attacker.port, secret: 'a guess' }, /needs the SENSITIVE level/],
    ];
    for (const [method, body, message] of attempts) {
      const answer = await t.remote(AMI, { method, headers: headers(), body });
      assert.equal(answer.status, 403, `${method} ${JSON.stringify(body)}: ${answer.text}`);
      assert.match(answer.json.messages.error.join(' '), message);
    }
    const stored = await t.call(AMI);
    assert.equal(stored.json.data.port, asterisk.port, 'nothing was saved');
    assert.equal(stored.json.data.username, 'console');

    // A change that is allowed makes the monitor re-read the settings: still the real Asterisk.
    const logins = asterisk.logins;
    const harmless = await t.remote(AMI, { method: 'PATCH', headers: headers(), body: { enabled: false } });
    assert.equal(harmless.status, 200, harmless.text);
    assert.equal((await t.remote(AMI, { method: 'PATCH', headers: headers(), body: { enabled: true } })).status, 200);
    await asterisk.waitFor(() => asterisk.logins > logins);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(attacker.logins, 0);
    assert.equal(received(attacker).includes(SECRET), false, 'the secret never reached the attacker');
    assert.equal(attacker.actions.length, 0);
  });

  it('a wrongly re-entered secret counts as a failed credential', async () => {
    const before = failures.length;
    await t.remote(AMI, {
      method: 'PATCH',
      headers: headers(),
      body: { port: attacker.port, secret: 'another guess' },
    });
    assert.equal(failures.length, before + 1);
    assert.deepEqual(failures.at(-1), {
      type: 'security-failure',
      category: 'http',
      ip: REMOTE,
      reason: 'wrong AMI secret re-entered',
    });
  });

  it('re-entering the stored secret, or holding SENSITIVE, allows the move', async () => {
    const moved = await t.remote(AMI, {
      method: 'PATCH',
      headers: headers(),
      body: { port: attacker.port, secret: SECRET },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal('secret' in moved.json.data, false);
    // The caller knew the secret, so the new listener getting it leaks nothing.
    await attacker.waitFor(() => attacker.logins > 0);

    const back = await t.call(AMI, { method: 'PATCH', body: { port: asterisk.port } });
    assert.equal(back.status, 200, 'the localhost bypass holds SENSITIVE');
    const full = createTestApiKey(t.server.services.db, { fullPermissions: true }).key;
    const viaFull = await t.remote(AMI, {
      method: 'PATCH',
      headers: { 'x-api-key': full },
      body: { username: 'console' },
    });
    assert.equal(viaFull.status, 200);
  });
});
