import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './server.ts';

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
