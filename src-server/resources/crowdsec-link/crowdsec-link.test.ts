import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTestServer } from '../../test-support/server.ts';

const PATH = '/pbxcore/api/v3/crowdsec-link';

describe('crowdsec-link settings', () => {
  const t = useTestServer();

  const patch = (body: Record<string, unknown>) => t.call(PATH, { method: 'PATCH', body });

  test('a URL that is not http(s) gets 422 naming the field', async () => {
    for (const url of ['ftp://192.0.2.1/', 'javascript:alert(1)', 'not-a-url', '//192.0.2.1:8080/']) {
      const answer = await patch({ url });
      assert.equal(answer.status, 422, url);
      assert.match(answer.json.messages.error.join(' '), /^url: must be an http/);
    }
    assert.equal((await patch({ url: 'https://lapi.example.net:8080/' })).status, 200);
  });

  test('credentials that are empty or over 256 characters get 422 naming the field', async () => {
    for (const name of ['machineLogin', 'machinePassword', 'bouncerKey']) {
      const empty = await patch({ [name]: '' });
      assert.equal(empty.status, 422, `${name} empty`);
      assert.match(empty.json.messages.error.join(' '), new RegExp(`^${name}: must be 1-256 characters`));
      const long = await patch({ [name]: 'x'.repeat(257) });
      assert.equal(long.status, 422, `${name} long`);
      assert.match(long.json.messages.error.join(' '), new RegExp(`^${name}: must be at most 256`));
      assert.equal((await patch({ [name]: 'x'.repeat(256) })).status, 200, `${name} at the limit`);
    }
  });

  test('turning the link on needs its URL and the credentials of each direction; secrets are never read back', async () => {
    // PUT resets what it does not name, except the write-only secrets (kept, as for every resource).
    await t.call(PATH, { method: 'PUT', body: {} });
    const missing = await patch({ enabled: true, pullEnabled: true });
    assert.equal(missing.status, 422);
    assert.match(missing.text, /url is required/);
    assert.match(missing.text, /machineLogin is required/);
    const saved = await patch({
      enabled: true,
      url: 'http://127.0.0.1:9/',
      machineLogin: 'site',
      machinePassword: 'secret pass',
      pullEnabled: true,
      bouncerKey: 'key',
    });
    assert.equal(saved.status, 200, saved.text);
    const read = await t.call(PATH);
    assert.equal(read.json.data.machineLogin, 'site');
    assert.ok(!('machinePassword' in read.json.data) && !('bouncerKey' in read.json.data));
    const stored = t.server.services.db.prepare("SELECT value FROM settings WHERE key = 'crowdsec-link'").get() as {
      value: string;
    };
    assert.ok(!stored.value.includes('secret pass'), 'the password is sealed at rest');
    assert.equal(t.server.services.crowdsecLink.settings().machinePassword, 'secret pass');
    const off = await patch({ enabled: false });
    assert.equal(off.status, 200);
    const status = await t.call(`${PATH}:getStatus`);
    assert.equal(status.json.data.state, 'off');
  });
});
