import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { captureLogs } from '../test-support/captured-logs.ts';
import { useTestServer } from '../test-support/server.ts';

describe('concurrent writes', () => {
  const { logger, lines } = captureLogs('warn');
  const t = useTestServer({ logger });

  it('1,000 valid filter creations with 20 in flight all succeed, and none needed a retry', async () => {
    const total = 1000;
    const inFlight = 20;
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < total) {
          const i = next++;
          // Each create reads the other filters (overlap checks) before it inserts: read, then write.
          const res = await t.call('/pbxcore/api/v3/firewall', {
            method: 'POST',
            body: {
              permit: `10.${i >> 8}.${i & 255}.0/24`,
              deny: `198.${18 + (i >> 8)}.${i & 255}.7`,
              description: `w${i}`,
            },
          });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    assert.deepEqual(Object.fromEntries(statuses), { 201: total }, 'every creation succeeded');
    const list = await t.call('/pbxcore/api/v3/firewall?limit=1');
    assert.equal(list.json.pagination.total, total);
    const failures = lines.filter((l) => /job (failed|parked)/.test(String(l.msg)));
    assert.deepEqual(failures, [], 'no attempt failed (SQLITE_BUSY_SNAPSHOT used to fail some)');
    const parked = t.server.services.db.prepare('SELECT COUNT(*) AS n FROM failed_jobs').get() as { n: number };
    assert.equal(parked.n, 0);
  });
});
