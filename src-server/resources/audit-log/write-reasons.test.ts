import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditEntry } from '../../audit/store.ts';
import { useTestServer } from '../../test-support/server.ts';

const V3 = '/pbxcore/api/v3';

describe('audit log: refused writes keep their reason, a preview is not a change, imports their counts', () => {
  const t = useTestServer();
  const entries = async (query: string): Promise<AuditEntry[]> => {
    const answer = await t.call(`${V3}/audit-log?${query}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.data as AuditEntry[];
  };

  it('a refused write records the reason its answer gave, and no diff', async () => {
    const refused = await t.call(`${V3}/fail2ban`, { method: 'PATCH', body: { maxretry: 0 } });
    assert.equal(refused.status, 422, refused.text);
    const [entry] = await entries('resource=fail2ban');
    assert.equal(entry?.status, 422);
    assert.deepEqual(entry?.diff, []);
    assert.equal(entry?.reason, refused.json.messages.error.join(' '));
    assert.match(entry!.reason!, /maxretry/);
  });

  it('a successful write has no reason', async () => {
    assert.equal((await t.call(`${V3}/fail2ban`, { method: 'PATCH', body: { maxretry: 4 } })).status, 200);
    const [entry] = await entries('resource=fail2ban');
    assert.equal(entry?.status, 200);
    assert.equal(entry?.reason, null);
  });

  it('an import preview (dryRun) is not logged; the import is, with its counts', async () => {
    const body = { format: 'values', content: '203.0.113.9\n198.51.100.0/24\n', duration: '2h' };
    const preview = await t.call(`${V3}/firewall:importBans`, { method: 'POST', body: { ...body, dryRun: true } });
    assert.equal(preview.status, 200, preview.text);
    assert.deepEqual(
      (await entries('resource=firewall')).filter((e) => e.operation === 'importBans'),
      [],
    );
    assert.equal((await t.call(`${V3}/firewall:importBans`, { method: 'POST', body })).status, 200);
    const imports = (await entries('resource=firewall')).filter((e) => e.operation === 'importBans');
    assert.equal(imports.length, 1);
    assert.deepEqual(imports[0]?.diff.find((c) => c.field === 'imported')?.after, {
      entries: 2,
      added: 2,
      extended: 0,
      unchanged: 0,
    });
  });
});
