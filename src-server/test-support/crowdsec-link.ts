import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './server.ts';
import type { Db } from '../storage/database.ts';

/** A test server whose CrowdSec link is on and points at a stand-in LAPI, with the push or pull `settings` given. */
export async function startLinkedTestServer(lapiUrl: string, settings: Record<string, unknown>): Promise<TestServer> {
  const pbx = await startTestServer();
  const saved = await pbx.call('/pbxcore/api/v3/crowdsec-link', {
    method: 'PUT',
    body: { enabled: true, url: lapiUrl, ...settings },
  });
  assert.equal(saved.status, 200, saved.text);
  return pbx;
}

/** Link settings that pull from a LAPI that never answers (port 9): what the link kept in SQLite is all it enforces. */
export const PULL_FROM_NOWHERE = {
  enabled: true,
  url: 'http://127.0.0.1:9/',
  pushEnabled: false,
  pullEnabled: true,
  bouncerKey: 'k'.repeat(40),
} as const;

/** One stored upstream decision: LAPI id, value, scenario, origin, end (ms). The scope follows the value. */
export type UpstreamRow = [lapiId: number, value: string, scenario: string, origin: string, expiresAt: number];

/** Stores upstream decisions as the puller keeps them, in one transaction. */
export function storeUpstreamDecisions(db: Db, rows: Iterable<UpstreamRow>): void {
  const insert = db.prepare(
    'INSERT INTO crowdsec_upstream_decisions (lapi_id, value, scope, scenario, origin, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const [id, value, scenario, origin, expiresAt] of rows)
      insert.run(id, value, value.includes('/') ? 'Range' : 'Ip', scenario, origin, expiresAt);
  })();
}
