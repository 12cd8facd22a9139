import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ok, useLocalApiTestServer } from '../test-support/api-server.ts';
import { getLogPage } from './query-hooks.ts';

const PATH = '/pbxcore/api/v3/audit-log';

describe('getLogPage', () => {
  const server = useLocalApiTestServer();

  it('asks for one page with the filter in the query, leaving out the empty ones', async () => {
    server.answer(`GET ${PATH}`, ok([{ id: 3 }, { id: 2 }], {}, { pagination: { total: 40, limit: 2, offset: 4 } }));
    const page = await getLogPage('audit-log.getList', { search: 'x', resource: '', limit: 2, offset: 4 });
    assert.deepEqual(page, { rows: [{ id: 3 }, { id: 2 }], total: 40 });
    assert.equal(server.seen.at(-1)!.url, `${PATH}?search=x&limit=2&offset=4`);
  });

  it('without pagination the total is the rows it got', async () => {
    server.answer(`GET ${PATH}`, ok([{ id: 1 }]));
    assert.deepEqual(await getLogPage('audit-log.getList', {}), { rows: [{ id: 1 }], total: 1 });
  });
});
