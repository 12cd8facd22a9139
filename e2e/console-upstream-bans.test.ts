// The Bans page with more upstream CrowdSec decisions than one unpaged list holds: the Upstream chip
// counts them all, the pages reach them all, and "Why is this address blocked?" names the upstream decision
// that holds an address, as not liftable here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BansScreen } from './pages/bans.ts';
import { useConsole } from './support/console-session.ts';
import { visible } from './support/page-helpers.ts';
import {
  PULL_FROM_NOWHERE,
  storeUpstreamDecisions,
  type UpstreamRow,
} from '../src-server/test-support/crowdsec-link.ts';

const V3 = '/pbxcore/api/v3/';
/** More than the 1,000 the list holds. */
const UPSTREAM = 1_200;

describe('console: upstream decisions on the Bans page', { timeout: 120_000 }, () => {
  const app = useConsole({
    prepare: async (server) => {
      // Pulling on, from a LAPI that never answers: what the link kept in SQLite is what it enforces.
      const saved = await server.call(`${V3}crowdsec-link`, { method: 'PUT', body: PULL_FROM_NOWHERE });
      assert.equal(saved.status, 200, saved.text);
      const now = Date.now();
      storeUpstreamDecisions(server.server.services.db, [
        ...Array.from(
          { length: UPSTREAM - 1 },
          (_, i): UpstreamRow => [
            i + 1,
            `10.1.${i >> 8}.${i & 255}`,
            'crowdsecurity/ssh-bf',
            'CAPI',
            now + 3600_000 + i * 1000,
          ],
        ),
        [UPSTREAM, '203.0.113.0/24', 'crowdsecurity/http-probing', 'crowdsec', now + 86_400_000],
      ]);
      const banned = await server.call(`${V3}firewall:banIp`, {
        method: 'POST',
        body: { ip: '198.51.100.7', duration: 3600, reason: 'own ban' },
      });
      assert.equal(banned.status, 201, banned.text);
    },
  });
  const bans = new BansScreen(app);

  it('Upstream (n) counts every upstream decision, and the lookup shows the one holding an address', async () => {
    const listed = await app.server.call(`${V3}firewall:getBannedIps`);
    assert.equal(listed.json.data.length, 1 + 1000, 'the list holds 1,000 upstream decisions');
    assert.equal(listed.json.pagination.total, 1 + UPSTREAM);

    await app.open();
    await bans.show();
    // Counts read with thousands separators, as the page range does.
    await bans.see(`Upstream (${UPSTREAM.toLocaleString('en-US')})`);
    await bans.see(`All (${(UPSTREAM + 1).toLocaleString('en-US')})`);
    // Paged on the server: every upstream decision is reachable, 50 at a time.
    await bans.see(`1–50 of ${(UPSTREAM + 1).toLocaleString('en-US')}`);

    await bans.lookUp('203.0.113.9');
    const answer = await visible(bans.lookupAnswer('203.0.113.9'));
    const decision = await bans.lookupDecision(answer).innerText();
    assert.match(
      decision,
      /Upstream CrowdSec decision of the range 203\.0\.113\.0\/24 \(crowdsec: crowdsecurity\/http-probing\)/,
    );
    assert.match(decision, /(23 h 59 min|1 d 0 h) left/);
    assert.match(decision, /Not liftable here/);
    assert.match(decision, /cscli decisions delete --range 203\.0\.113\.0\/24/);
    assert.match(await answer.innerText(), /One decision blocks 203\.0\.113\.9/);
  });
});
