import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';
import { HttpError } from '../../wire/errors.ts';
import { insertFilter, loadFilter, loadFilters, removeFilter, replaceFilters, updateFilter } from '../filters/index.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

const served = { ip: '127.0.0.1', userAgent: 'facade-test' };
const text = (parts: readonly Buffer[]) => Buffer.concat(parts).toString();
const statusOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
  return 200;
};

/** A first (startup) stream poll of key `keyId`, plain JSON unless `options` say otherwise. */
const startupPoll = (keyId: number, options: { acceptsGzip?: boolean; served?: typeof served } = {}) => ({
  keyId,
  expandRanges: false,
  startup: true,
  acceptsGzip: false,
  ...options,
});

describe('BouncerExport: the one entry point of the export', () => {
  test('a served stream poll is recorded before stream() returns; a HEAD poll records nothing', async () => {
    const { db, firewall } = t.server.services;
    const { id } = createTestApiKey(db);
    const head = await firewall.bouncerExport.stream(startupPoll(id));
    assert.equal(firewall.cursors.get(id), undefined);
    assert.match(text(head.parts), /^\{"new":\[.*\],"deleted":\[.*\]\}$/s);
    const answer = await firewall.bouncerExport.stream(startupPoll(id, { served }));
    const cursor = firewall.cursors.get(id);
    assert.equal(cursor?.polls, 1);
    assert.deepEqual(cursor?.sent, [firewall.snapshots.get().version]);
    assert.equal(answer.gzipped, false);
  });

  test('a small snapshot is never gzipped, even for a client that takes gzip', async () => {
    const { db, firewall } = t.server.services;
    const { id } = createTestApiKey(db);
    const answer = await firewall.bouncerExport.stream(startupPoll(id, { acceptsGzip: true }));
    assert.equal(answer.gzipped, false);
    assert.doesNotThrow(() => JSON.parse(text(answer.parts)));
  });

  test('decisions: 400 for an unknown filter, `null` when nothing matches', () => {
    const bouncer = t.server.services.firewall.bouncerExport;
    assert.equal(
      statusOf(() => bouncer.decisions({ nonsense: '1' })),
      400,
    );
    assert.equal(text(bouncer.decisions({ ip: '198.51.100.250' }).parts), 'null');
  });

  test('usage metrics: 413 over the limit, 400 without a body, 422 for a bad report', () => {
    const bouncer = t.server.services.firewall.bouncerExport;
    const report = (body: unknown, declaredBytes?: number) => () =>
      bouncer.reportUsage({ keyId: 1, ip: '127.0.0.1', userAgent: 'x', body, declaredBytes });
    assert.equal(statusOf(report({}, 10_000_000)), 413);
    assert.equal(statusOf(report(undefined)), 400);
    assert.equal(statusOf(report({ remediation_components: 'no' })), 422);
  });

  test('blocklist: 400 for an unknown format; a rendered feed has an ETag and a gzip form', async () => {
    const bouncer = t.server.services.firewall.bouncerExport;
    assert.equal(
      statusOf(() => bouncer.blocklist({ format: 'nope' })),
      400,
    );
    const feed = bouncer.blocklist({});
    assert.match(feed.etag, /^"[\w-]+"$/);
    assert.deepEqual(gunzipSync(await bouncer.gzipped(feed)), feed.body);
  });
});

describe('filter store: the one owner of network_filters', () => {
  test('insert, update, remove and a restore round-trip through the read shape', () => {
    const { db } = t.server.services;
    const row = {
      permit: '192.0.2.0/24',
      deny: '0.0.0.0/0',
      description: 'store test',
      newer_block_ip: 0,
      local_network: 1,
      rules: '{"SIP":"block"}',
    };
    const id = insertFilter(db, row);
    assert.deepEqual(loadFilter(db, id), {
      id,
      permit: '192.0.2.0/24',
      deny: '0.0.0.0/0',
      description: 'store test',
      newer_block_ip: false,
      local_network: true,
      rules: { SIP: 'block', WEB: 'allow', AMI: 'allow', IAX: 'allow' },
    });
    updateFilter(db, id, { ...row, description: 'renamed', newer_block_ip: 1 });
    assert.equal(loadFilter(db, id)?.description, 'renamed');
    assert.equal(loadFilter(db, id)?.newer_block_ip, true);
    removeFilter(db, id);
    assert.equal(loadFilter(db, id), undefined);

    replaceFilters(db, [{ ...row, id: 77 }], 2 ** 31 - 1);
    assert.deepEqual(
      loadFilters(db).map((f) => f.id),
      [77],
    );
    // New ids follow the restored ones.
    assert.ok(insertFilter(db, row) > 77);
    replaceFilters(db, [], 2 ** 31 - 1);
    assert.deepEqual(loadFilters(db), []);
  });
});
