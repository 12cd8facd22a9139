import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ok, useLocalApiTestServer } from '../../../test-support/api-server.ts';
import { namesNotInContract } from '../../../test-support/contract-query.ts';
import { getAllAuditEntries, getAuditLog } from './get-audit-log.ts';

const PATH = '/pbxcore/api/v3/audit-log';
const ANY = { search: '', kind: '', channel: '', resource: '', since: '', until: '' } as const;

describe('getAuditLog', () => {
  const server = useLocalApiTestServer();
  beforeEach(() => {
    server.seen.length = 0;
  });
  const sent = (index = 0) => new URL(server.seen[index]!.url, server.origin).searchParams;
  const page = (rows: unknown[], total: number, offset: number) =>
    ok(rows, {}, { pagination: { total, limit: 1000, offset, hasMore: offset + rows.length < total } });

  it('sends each filter as the query parameter the contract names for audit-log getList', async () => {
    server.answer(`GET ${PATH}`, page([], 0, 0));
    const filter = {
      search: ' admin ',
      kind: 'write',
      channel: 'api_key',
      resource: ' firewall ',
      since: '2026-11-01T00:00:00.000Z',
      until: '2026-11-02T00:00:00.000Z',
      limit: 50,
      offset: 100,
    } as const;
    await getAuditLog(filter);
    const query = sent();
    assert.deepEqual(Object.fromEntries(query), {
      search: 'admin',
      kind: 'write',
      channel: 'api_key',
      resource: 'firewall',
      since: filter.since,
      until: filter.until,
      limit: '50',
      offset: '100',
    });
    // A parameter renamed on the server (and the contract regenerated) leaves the console's name unlisted.
    assert.deepEqual(namesNotInContract('audit-log.getList', query), []);
  });

  it('reads every entry page by page, 1000 at a time, with the same filter', async () => {
    const rows = (count: number, from: number) => Array.from({ length: count }, (_, i) => ({ id: from + i }));
    server.answer(`GET ${PATH}`, page(rows(1000, 0), 1500, 0), page(rows(500, 1000), 1500, 1000));
    const all = await getAllAuditEntries({ ...ANY, kind: 'failed-login' });
    assert.equal(all.length, 1500);
    assert.deepEqual(
      server.seen.map((_, i) => Object.fromEntries(sent(i))),
      [
        { kind: 'failed-login', limit: '1000', offset: '0' },
        { kind: 'failed-login', limit: '1000', offset: '1000' },
      ],
    );
  });
});
