import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ok, useLocalApiTestServer } from '../../../test-support/api-server.ts';
import { OPERATIONS } from '#shared/contract/operations.ts';
import { namesNotInContract } from '../../../test-support/contract-query.ts';
import { exportBans } from './export-bans.ts';
import { getBanHistory } from './get-ban-history.ts';
import { getBanCounts, getBannedIps } from './get-banned-ips.ts';
import { lookupAddress } from './lookup-address.ts';

// Each fetcher, the operation whose query it sends, and the query it should send.
const FETCHERS = [
  {
    operationId: 'firewall.getBannedIps',
    // '' is no filter: left out.
    fetch: () => getBannedIps({ search: ' 203.0 ', category: '', limit: 50, offset: 100 }),
    query: { search: '203.0', limit: '50', offset: '100' },
  },
  {
    operationId: 'firewall.getBanCounts',
    fetch: () => getBanCounts('scanner'),
    query: { search: 'scanner' },
  },
  {
    operationId: 'firewall.getBanHistory',
    fetch: () => getBanHistory(1440),
    query: { minutes: '1440' },
  },
  {
    operationId: 'firewall.lookup',
    fetch: () => lookupAddress('203.0.113.7'),
    query: { ip: '203.0.113.7' },
  },
  {
    operationId: 'firewall.exportBans',
    fetch: () => exportBans('csv', 'manual'),
    query: { format: 'csv', source: 'manual' },
  },
] as const;

describe('the bans fetchers send only query parameters the contract lists', () => {
  const server = useLocalApiTestServer();
  beforeEach(() => {
    server.seen.length = 0;
  });

  for (const { operationId, fetch, query } of FETCHERS) {
    const { path } = OPERATIONS[operationId];
    it(`${path} sends ${Object.keys(query).join(', ')}`, async () => {
      server.answer(`GET /pbxcore/api/v3/${path}`, ok({ points: [] }));
      await fetch();
      const sent = new URL(server.seen[0]!.url, server.origin).searchParams;
      assert.deepEqual(Object.fromEntries(sent), query);
      // A parameter renamed on the server (and the contract regenerated) leaves the console's name unlisted.
      assert.deepEqual(namesNotInContract(operationId, sent), []);
    });
  }
});
