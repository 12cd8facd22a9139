import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { failed, ok, startApiTestServer, type ApiTestServer } from '../test-support/api-server.ts';
import { enterLocalhostMode } from './auth-session.ts';
import { settingsResource } from './settings-resource.ts';

const PATH = '/pbxcore/api/v3/fail2ban';

describe('settingsResource', () => {
  let server: ApiTestServer;
  const resource = settingsResource({ resource: 'fail2ban', queryKey: ['fail2ban'] });
  before(async () => {
    server = await startApiTestServer();
    enterLocalhostMode();
  });
  after(() => server.close());

  it('reads the settings with GET on the resource, under its one query key', async () => {
    server.answer(`GET ${PATH}`, ok({ maxretry: 5, bantime: 600 }));
    assert.deepEqual(resource.queryKey, ['fail2ban']);
    const options = resource.queryOptions();
    assert.deepEqual(options.queryKey, ['fail2ban']);
    assert.deepEqual(await resource.get(), { maxretry: 5, bantime: 600 });
  });

  it('saves a partial input with PATCH and returns the stored record', async () => {
    server.answer(`PATCH ${PATH}`, ok({ maxretry: 3, bantime: 600 }));
    assert.deepEqual(await resource.update({ maxretry: 3 }), { maxretry: 3, bantime: 600 });
    const sent = server.seen.at(-1)!;
    assert.equal(sent.method, 'PATCH');
    assert.deepEqual(sent.body, { maxretry: 3 });
  });

  it('a refused save rejects with the field messages (shown inline by the form)', async () => {
    server.answer(`PATCH ${PATH}`, failed(422, 'maxretry: must be at least 1'));
    await assert.rejects(resource.update({ maxretry: 0 }), {
      status: 422,
      messages: ['maxretry: must be at least 1'],
    });
  });
});
