import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from '../../test-support/server.ts';
import { KEYS } from '../../test-support/v3-paths.ts';

describe('api-keys bouncer_setup', () => {
  const t = useTestServer();

  it('remembers the bouncer a key was made for, and reads null for other keys', async () => {
    const created = await t.post(KEYS, {
      description: 'fw3',
      allowed_paths: { '/api/v3/firewall-bouncer': 'read' },
      networkfilterid: 'localhost',
      bouncer_setup: 'custom-bouncer',
    });
    assert.equal(created.status, 201, created.text);
    const id = created.json.data.id as number;
    assert.equal((await t.call(`${KEYS}/${id}`)).json.data.bouncer_setup, 'custom-bouncer');
    const plain = await t.post(KEYS, { description: 'script', networkfilterid: 'localhost' });
    assert.equal(plain.json.data.bouncer_setup, null);
    const changed = await t.call(`${KEYS}/${id}`, {
      method: 'PATCH',
      body: { description: 'fw3', bouncer_setup: 'nftables' },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.json.data.bouncer_setup, 'nftables');
  });

  it('refuses an unknown bouncer with 422 naming the field, and stores nothing', async () => {
    const before = (await t.call(KEYS)).json.data.length as number;
    const refused = await t.post(KEYS, { description: 'bad', networkfilterid: 'localhost', bouncer_setup: 'pf' });
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.json.messages.error.join(' '), /bouncer_setup/);
    assert.equal((await t.call(KEYS)).json.data.length, before);
  });
});
