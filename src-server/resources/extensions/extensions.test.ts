import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from '../../test-support/server.ts';
import { EXT } from '../../test-support/v3-paths.ts';

describe('extensions: save semantics and pagination', () => {
  const t = useTestServer();

  it('creates with defaults, 201, and never returns the secret', async () => {
    const res = await t.post(EXT, { number: '301', username: ' Carol ', secret: 'super-secret' });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json.data, { number: '301', username: 'Carol', callerid: '', disabled: false });
    assert.equal(res.text.includes('super-secret'), false);
  });

  it('accepts form-encoded bodies with string booleans', async () => {
    const res = await t.call(EXT, {
      method: 'POST',
      body: 'number=302&username=Dan&secret=form-secret&disabled=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.data.disabled, true);
  });

  it('reports every validation problem with 422', async () => {
    const res = await t.post(EXT, { number: '1', username: 'x', secret: 'short' });
    assert.equal(res.status, 422);
    assert.equal(res.json.messages.error.length, 2);
    assert.match(res.json.messages.error.join(' '), /number/);
    assert.match(res.json.messages.error.join(' '), /secret/);
    const missing = await t.post(EXT, {});
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.json.messages.error, [
      'number is required.',
      'username is required.',
      'secret is required.',
    ]);
  });

  it('gives 409 for a duplicate id', async () => {
    const res = await t.post(EXT, { number: '301', username: 'Again', secret: 'another-secret' });
    assert.equal(res.status, 409);
  });

  it('PATCH writes only the fields present, without required fields', async () => {
    const res = await t.call(`${EXT}/301`, { method: 'PATCH', body: { callerid: 'Reception' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data, { number: '301', username: 'Carol', callerid: 'Reception', disabled: false });
  });

  it('PUT replaces the record and enforces required fields', async () => {
    const bad = await t.call(`${EXT}/301`, { method: 'PUT', body: { callerid: 'x' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.json.messages.error, ['username is required.']);
    const res = await t.call(`${EXT}/301`, { method: 'PUT', body: { username: 'Caroline' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.callerid, '', 'absent optional fields are reset');
  });

  it('refuses to change the id through an update', async () => {
    const res = await t.call(`${EXT}/301`, { method: 'PATCH', body: { number: '399' } });
    assert.equal(res.status, 422);
  });

  it('a failed save changes nothing', async () => {
    const before = (await t.call(`${EXT}/301`)).json.data;
    assert.equal(
      (await t.call(`${EXT}/301`, { method: 'PATCH', body: { username: '', callerid: 'changed' } })).status,
      422,
    );
    assert.deepEqual((await t.call(`${EXT}/301`)).json.data, before);
  });

  it('paginates only when asked, with totals', async () => {
    for (let n = 310; n < 325; n++) {
      await t.call(EXT, { method: 'POST', body: { number: String(n), username: `U${n}`, secret: 'secret-secret' } });
    }
    const all = await t.call(EXT);
    assert.equal(all.json.data.length, 17);
    assert.deepEqual(all.json.pagination, { total: 17, limit: 17, offset: 0, hasMore: false });
    const page = await t.call(`${EXT}?limit=5&offset=10`);
    assert.equal(page.json.data.length, 5);
    assert.deepEqual(page.json.pagination, { total: 17, limit: 5, offset: 10, hasMore: true });
    const offsetOnly = await t.call(`${EXT}?offset=15`);
    assert.deepEqual(offsetOnly.json.pagination, { total: 17, limit: 50, offset: 15, hasMore: false });
    for (const bad of ['limit=-1', 'limit=abc', 'offset=-3', 'limit=1001', 'limit=0']) {
      assert.equal((await t.call(`${EXT}?${bad}`)).status, 422, bad);
    }
  });

  it('deletes and then reports the record missing', async () => {
    assert.equal((await t.call(`${EXT}/302`, { method: 'DELETE' })).status, 200);
    assert.equal((await t.call(`${EXT}/302`)).status, 404);
    assert.equal((await t.call(`${EXT}/302`, { method: 'DELETE' })).status, 404);
  });

  it('lists enabled extensions for pickers', async () => {
    const res = await t.call(`${EXT}:getForSelect`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.data[0], { value: '301', text: '301 Caroline' });
  });
});
