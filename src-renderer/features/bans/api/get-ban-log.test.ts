import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ok, useLocalApiTestServer } from '../../../test-support/api-server.ts';
import { namesNotInContract } from '../../../test-support/contract-query.ts';
import { getBanLog } from './get-ban-log.ts';

const PATH = '/pbxcore/api/v3/firewall:getBanLog';

describe('getBanLog', () => {
  const server = useLocalApiTestServer();
  beforeEach(() => {
    server.seen.length = 0;
    server.answer(`GET ${PATH}`, ok([], {}, { pagination: { total: 0, limit: 25, offset: 0, hasMore: false } }));
  });
  const sent = () => new URL(server.seen[0]!.url, server.origin).searchParams;

  it('sends each filter as the query parameter the contract names for firewall:getBanLog', async () => {
    await getBanLog({ search: ' 203.0.113 ', category: 'sip', state: 'lifted', limit: 25, offset: 50 });
    const query = sent();
    assert.deepEqual(Object.fromEntries(query), {
      search: '203.0.113',
      category: 'sip',
      state: 'lifted',
      limit: '25',
      offset: '50',
    });
    // A parameter renamed on the server (and the contract regenerated) leaves the console's name unlisted.
    assert.deepEqual(namesNotInContract('firewall.getBanLog', query), []);
  });

  it('leaves out the filters set to any, and keeps the page', async () => {
    await getBanLog({ search: '  ', category: '', state: '', limit: 25, offset: 0 });
    assert.deepEqual(Object.fromEntries(sent()), { limit: '25', offset: '0' });
  });
});
