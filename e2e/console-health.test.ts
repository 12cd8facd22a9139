// The Dashboard's Health card and LAPI link card: every failing check in words with its age and
// a link to where it is fixed, a router feed key shown served (never "Never polled") after a fetch,
// the LAPI link down. The server runs on a hand-moved clock that starts 10 minutes in the past, so
// the ages the browser computes are real ones; checked with axe at 1440 and 390 px.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import { ManualClock } from '../src-server/clock.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { poll } from '../src-server/test-support/bouncer.ts';
import { PULL_FROM_NOWHERE } from '../src-server/test-support/crowdsec-link.ts';
import { waitUntil } from '../src-server/test-support/wait.ts';
import { useConsole } from './support/console-session.ts';
import { Form } from './pages/form.ts';
import { dismissNotifications, eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const WIDTHS = [1440, 390] as const;
const clock = new ManualClock(Date.now() - 10 * 60_000);

describe('console: the Health card and the LAPI link on the Dashboard', () => {
  const app = useConsole({
    server: { adminPassword: 'health-e2e-password', clock },
    async prepare(server) {
      const { db, bus, health, crowdsecLink } = server.server.services;
      const stream = createTestApiKey(db, { description: 'fw-stream' });
      const feed = createTestApiKey(db, { description: 'office mikrotik' });
      await poll(server, stream.key, '?startup=true');
      const fetched = await server.call(`${V3}firewall-bouncer/blocklist?format=plain_text`, {
        headers: { 'X-Api-Key': feed.key },
      });
      assert.equal(fetched.status, 200, fetched.text);
      const linked = await server.call(`${V3}crowdsec-link`, { method: 'PUT', body: PULL_FROM_NOWHERE });
      assert.equal(linked.status, 200, linked.text);
      await waitUntil('the LAPI pull fails', () => crowdsecLink.status.status.pull.state === 'error');
      health.evaluate();
      clock.advance(2 * 60_000);
      health.evaluate();
      bus.emit({
        type: 'account-flagged',
        flag: {
          account: '201',
          address: '198.51.100.20',
          registeredAccounts: ['202'],
          state: 'flagged',
          failures: 12,
          at: new Date(clock.now()).toISOString(),
        },
      });
    },
  });

  it('lists every failing check in words, with its age and where to act; the feed key reads Served', async () => {
    const { page } = app;
    await app.open();
    const card = page.getByRole('region', { name: 'Health' });
    const items = card.getByTestId('health-check');
    await eventually(
      () => items.count(),
      (count) => count === 3,
      'three failing checks',
    );
    const texts = await items.allInnerTexts();
    const find = (pattern: RegExp) => texts.find((text) => pattern.test(text)) ?? assert.fail(texts.join('\n'));
    const lapi = find(/The CrowdSec LAPI link is down/);
    assert.match(lapi, /^critical/i);
    assert.match(lapi, /Failing since \d{2}:\d{2}.*\(\d+ min \d+ s\)/);
    assert.match(lapi, /Settings › CrowdSec link/);
    const silent = find(/Bouncer "fw-stream" has not polled for 3 of its intervals/);
    assert.match(silent, /API keys › fw-stream/);
    assert.match(silent, /\(\d+ min \d+ s\)/, 'its age');
    assert.match(find(/Account 201 keeps failing from 198\.51\.100\.20/), /Phones › 201/);
    assert.equal(await card.getByTestId('health-state').textContent(), '3 failing');

    // A feed key that fetched 10 minutes ago is served: a fetch is its poll.
    const feedRow = page.getByTestId('bouncer-row').filter({ hasText: 'office mikrotik' });
    assert.equal(await (await visible(feedRow.getByTestId('bouncer-state'))).textContent(), 'Served');

    const lapiCard = page.getByRole('region', { name: 'CrowdSec LAPI link' });
    assert.equal(await (await visible(lapiCard.getByTestId('lapi-state'))).textContent(), 'Down');

    await dismissNotifications(page);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await visible(items.first());
      const results = await axeAudit(page).analyze();
      const serious = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 100)}`).join(' | ')}`);
      assert.deepEqual(serious, [], `dashboard at ${width} px`);
      const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      assert.ok(scrollWidth <= width, `the dashboard at ${width} px is ${scrollWidth} px wide`);
      await app.browser.screenshot(`health-dashboard-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    // Where to act is a link: by touch or click, it opens the page.
    await card.getByRole('link', { name: 'API keys › fw-stream' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  });

  it("sets a router feed key's fetch interval in the Edit dialog; a value out of bounds is named", async () => {
    const { server, page } = app;
    const { apiKeys } = app.screens;
    await app.open('/api-keys');
    await apiKeys.action('office mikrotik', 'Edit…');
    const dialog = new Form(apiKeys, await visible(apiKeys.dialog('Edit “office mikrotik”')));
    await dialog.fill({ 'Router fetches every (minutes)': '2000' });
    await dialog.save('Save changes');
    await visible(page.getByText(/feed_interval_minutes|1440/).first());
    await dialog.fill({ 'Router fetches every (minutes)': '15' });
    await dialog.save('Save changes');
    await apiKeys.dialogsClosed();
    const keys = (await server.call(`${V3}api-keys`)).json.data as Array<Record<string, unknown>>;
    assert.equal(keys.find((key) => key.description === 'office mikrotik')!.feed_interval_minutes, 15);
  });

  it('says every check passes once the failures are over', async () => {
    const { server, page } = app;
    const { bus, health } = server.server.services;
    const off = await server.call(`${V3}crowdsec-link`, { method: 'PATCH', body: { enabled: false } });
    assert.equal(off.status, 200, off.text);
    await waitUntil('the link is off', () => server.server.services.crowdsecLink.status.status.pull.state === 'off');
    const keys = (await server.call(`${V3}api-keys`)).json.data as Array<{ id: number; description: string }>;
    for (const key of keys)
      if (key.description === 'fw-stream') await server.call(`${V3}api-keys/${key.id}`, { method: 'DELETE' });
    bus.emit({
      type: 'account-flagged',
      flag: {
        account: '201',
        address: '198.51.100.20',
        registeredAccounts: ['202'],
        state: 'cleared',
        failures: 12,
        at: new Date(clock.now()).toISOString(),
      },
    });
    server.server.services.firewall.cursors.forgetRevokedKeys();
    health.evaluate();
    await app.open();
    const card = page.getByRole('region', { name: 'Health' });
    await eventually(
      () => card.getByTestId('health-state').textContent(),
      (text) => text === 'All good',
      'all good',
    );
    assert.match(await card.innerText(), /Every check passes/);
  });
});
