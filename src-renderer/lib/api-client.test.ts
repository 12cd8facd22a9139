import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ok, useLocalApiTestServer } from '../test-support/api-server.ts';
import { callOperation, listOperation, requestOperation } from './api-client.ts';

const V3 = '/pbxcore/api/v3/';

describe('api client (by operation)', () => {
  const server = useLocalApiTestServer();
  beforeEach(() => {
    server.seen.length = 0;
  });
  const last = () => server.seen.at(-1)!;

  it("sends the operation's method to its path, with the path parameters filled in and encoded", async () => {
    server.answer(`PATCH ${V3}api-keys/7`, ok({ id: 7, description: 'fw1' }));
    const key = await callOperation('api-keys.patch', {
      path: { id: 7 },
      body: { description: 'fw1', enabled: false },
    });
    assert.equal(key.description, 'fw1');
    assert.equal(last().method, 'PATCH');
    assert.deepEqual(last().body, { description: 'fw1', enabled: false });

    server.answer(`GET ${V3}sip/a%20b%3Ac:getStatus`, ok({ id: 'a b:c' }));
    await callOperation('sip.getStatus.get', { path: { id: 'a b:c' } });
    assert.equal(last().url, `${V3}sip/a%20b%3Ac:getStatus`);
  });

  it('sends a POST without a body as {}, and a GET or DELETE without one', async () => {
    server.answer(`POST ${V3}api-keys/3:rotate`, ok({ key: 'k' }));
    await callOperation('api-keys.rotate', { path: { id: 3 } });
    assert.deepEqual(last().body, {});
    server.answer(`DELETE ${V3}firewall/3`, ok(null));
    await callOperation('firewall.delete', { path: { id: 3 } });
    assert.equal(last().body, undefined);
  });

  it('sends the query by its contract names; a list answers its items and pagination', async () => {
    const pagination = { total: 9, limit: 2, offset: 0, hasMore: true };
    server.answer(`GET ${V3}firewall:getBannedIps`, ok([{ ip: '203.0.113.7' }], {}, { pagination }));
    const page = await listOperation('firewall.getBannedIps', { query: { search: '203.0', limit: 2 } });
    assert.deepEqual(page, { items: [{ ip: '203.0.113.7' }], pagination });
    assert.equal(last().url, `${V3}firewall:getBannedIps?search=203.0&limit=2`);
  });

  it('returns the notices with the data', async () => {
    server.answer(`POST ${V3}firewall:unbanAndWhitelist`, ok({ lifted: [] }, { info: ['whitelisted'] }));
    const answer = await requestOperation('firewall.unbanAndWhitelist', { body: { ip: '203.0.113.7' }, quiet: true });
    assert.deepEqual(answer.notices, { info: ['whitelisted'], warning: [] });
  });
});

// Checked by the typecheck (tsconfig.web-test.json), never run: the contract refuses a wrong pairing.
export function refusedByTheContract() {
  // @ts-expect-error an operation the contract does not have
  void callOperation('firewall.getBannedIP');
  // @ts-expect-error a record operation needs its id
  void callOperation('api-keys.getRecord');
  // @ts-expect-error a query name the operation does not list
  void callOperation('firewall.getBannedIps', { query: { serch: 'x' } });
  // @ts-expect-error an operation without query parameters takes none
  void callOperation('system.getInfo', { query: { limit: 1 } });
  // @ts-expect-error an enum parameter takes only its values
  void callOperation('firewall.exportBans', { query: { format: 'xml' } });
  // @ts-expect-error the body of banIp has no `address`
  void callOperation('firewall.banIp', { body: { address: '203.0.113.7' } });
}
