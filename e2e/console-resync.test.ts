// Resync from the console: a bouncer whose usage report says it holds other decisions than its
// last poll carried (a firewall that lost its set) is offered "Resync" on its dashboard card; the
// request is audited and the key's next router-feed fetch is the whole list. Axe and the 390 px
// layout are checked on the card in that state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import { BOUNCER_PATHS } from '../src-server/test-support/api-keys.ts';
import { poll } from '../src-server/test-support/bouncer.ts';
import { RouterOsModel } from '../src-server/test-support/routeros-model.ts';
import { feedCursorVariable } from '../src-shared/formats.ts';
import { useConsole } from './support/console-session.ts';
import { dismissNotifications, eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const FEED = `${V3}firewall-bouncer/blocklist?format=mikrotik&listname=edge`;

/** A firewall bouncer's usage report saying it holds `active` decisions. */
const report = (active: number) => ({
  remediation_components: [
    {
      type: 'crowdsec-firewall-bouncer',
      version: 'v0.0.31',
      utc_startup_timestamp: 1_700_000_000,
      metrics: [
        {
          meta: { window_size_seconds: 900, utc_now_timestamp: 1_700_000_900 },
          items: [{ name: 'active_decisions', value: active, unit: 'ip', labels: { origin: 'pbx-fail2ban' } }],
        },
      ],
    },
  ],
});

describe('console: resync a bouncer that lost its set', () => {
  const app = useConsole({ server: { adminPassword: 'resync-e2e-password' } });
  const { dashboard } = app.screens;

  it('the card shows what it holds against what it was sent, offers Resync, and the request is audited', async () => {
    const { server, page } = app;
    for (const ip of ['198.51.100.31', '198.51.100.32']) {
      const banned = await server.call(`${V3}firewall:banIp`, { method: 'POST', body: { ip, duration: 3600 } });
      assert.equal(banned.status, 201, banned.text);
    }
    const made = await server.call(`${V3}api-keys`, {
      method: 'POST',
      body: { description: 'fw-edge', allowed_paths: BOUNCER_PATHS, full_permissions: false, networkfilterid: 'none' },
    });
    const key = { id: made.json.data.id as number, key: made.json.data.key as string };
    const sent = (await poll(server, key.key, '?startup=true')).new.length;
    assert.equal(sent, 2);
    // Its router too: it fetched the feed once and keeps the cursor.
    const router = new RouterOsModel();
    const fetchFeed = async () => {
      const since = router.globals.get(feedCursorVariable('edge'));
      const answer = await server.remote(`${FEED}${since ? `&since=${since}` : ''}`, {
        headers: { 'X-Api-Key': key.key },
      });
      assert.equal(answer.status, 200, answer.text);
      router.run(answer.text, server.server.services.clock.now());
    };
    await fetchFeed();
    const metrics = await server.remote(`${V3}firewall-bouncer/v1/usage-metrics`, {
      method: 'POST',
      headers: { 'X-Api-Key': key.key },
      body: report(0),
    });
    assert.equal(metrics.status, 201, metrics.text);
    server.server.services.firewall!.hosts.flush();

    await app.open();
    const drift = await visible(dashboard.bouncer('fw-edge').getByTestId('bouncer-drift'));
    assert.match(await drift.innerText(), /holds 0 decisions; its last poll carried 2/);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await dismissNotifications(page);
      const results = await axeAudit(page).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(
        serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`),
        [],
        `dashboard with a drifted bouncer at ${width} px`,
      );
      const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      assert.ok(scrollWidth <= width, `${width} px: the page is ${scrollWidth} px wide`);
      const button = drift.getByRole('button', { name: 'Resync fw-edge' });
      const box = await button.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, `the Resync button is on screen at ${width} px`);
      await app.browser.screenshot(`resync-card-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await drift.getByRole('button', { name: 'Resync fw-edge' }).click();
    await visible(page.getByText('Resync requested'));
    const audited = await eventually(
      async () => {
        server.server.services.audit.flush();
        return server.server.services.db
          .prepare(
            "SELECT count(*) FROM audit_log WHERE resource = 'api-keys' AND operation = 'resync' AND record_id = ?",
          )
          .pluck()
          .get(String(key.id)) as number;
      },
      (n) => n >= 1,
      'the resync in the audit log',
    );
    assert.ok(audited >= 1);
    await fetchFeed();
    assert.ok(router.ran.swap, "the router's next fetch is the whole list");
  });
});
