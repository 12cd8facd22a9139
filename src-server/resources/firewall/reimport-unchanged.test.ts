import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { poll, pollUntil, values } from '../../test-support/bouncer.ts';
import { useTestServer } from '../../test-support/server.ts';

const IMPORT = '/pbxcore/api/v3/firewall:importBans';
const ENTRIES = 15_000;

/** 15,000 public addresses, one per line (11.0.0.0/8 holds no reserved range). */
const list = Array.from({ length: ENTRIES }, (_, i) => `11.${i >> 8}.${i & 255}.1`).join('\n');

describe('re-importing an unchanged ban list', () => {
  const t = useTestServer();

  test('15,000 entries imported again: nothing new in the published set, nothing deleted, no new version', async () => {
    const first = await t.call(IMPORT, {
      method: 'POST',
      body: { format: 'values', content: list, duration: 'permanent' },
    });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.data.added, ENTRIES);
    const { key } = createTestApiKey(t.server.services.db);
    const before = await pollUntil(t, key, (a) => a.new.length >= ENTRIES);
    assert.equal(before.new.length, ENTRIES);
    await poll(t, key); // the key's cursor is now at the current version
    const log = t.server.services.firewall!.log;
    const versionBefore = log.version;

    const again = await t.call(IMPORT, {
      method: 'POST',
      body: { format: 'values', content: list, duration: 'permanent' },
    });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(
      [again.json.data.added, again.json.data.extended, again.json.data.unchanged],
      [0, 0, ENTRIES],
      'every entry is one the server already holds',
    );
    // Give the web thread the import (it takes imported bans in the background), then compare.
    const after = await poll(t, key);
    t.server.services.firewall!.snapshots.get();
    assert.equal(log.version, versionBefore, 'no change of membership was published');
    assert.deepEqual(after.deleted, [], 'nothing deleted');
    assert.deepEqual(values(after.new), values(before.new), 'nothing new: the same decisions');
    const afterRestart = await poll(t, key, '?startup=true');
    assert.deepEqual(values(afterRestart.new), values(before.new));
  });
});
