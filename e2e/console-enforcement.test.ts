// Enforcement visible in the console: bouncer state from its last attempt (a key that polled and
// then expired reads "Refused … key expired", never green), the banner when bans reach no bouncer,
// the Delivered column on bans, and "Why is this address blocked?" on the Bans page. Axe and the
// 390 px layout are checked on the screens in the states these steps leave them in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import type { Page } from 'playwright-core';
import { BOUNCER_PATHS } from '../src-server/test-support/api-keys.ts';
import { poll, STREAM } from '../src-server/test-support/bouncer.ts';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const WIDTHS = [1280, 390] as const;

interface BannedIp {
  ip: string;
  delivery: { served: number; of: number };
}

describe('console: enforcement visible (bouncer state, delivery, banner, address lookup)', () => {
  const app = useConsole({ server: { adminPassword: 'enforcement-e2e-password' } });
  const { dashboard, bans } = app.screens;
  let fw1 = { id: 0, key: '' };
  let fw2 = { id: 0, key: '' };

  const post = async (path: string, body: unknown) => {
    const answer = await app.server.call(`${V3}${path}`, { method: 'POST', body });
    assert.ok(answer.status === 200 || answer.status === 201, `POST ${path}: ${answer.status} ${answer.text}`);
    return answer.json.data as Record<string, unknown>;
  };
  const makeBouncerKey = async (description: string) => {
    const made = await post('api-keys', {
      description,
      allowed_paths: BOUNCER_PATHS,
      full_permissions: false,
      networkfilterid: 'none',
    });
    return { id: made.id as number, key: made.key as string };
  };

  /** No serious or critical axe violation, nothing wider than the window, at 1280 and 390 px; screenshots of each. */
  async function checkLayout(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await ready();
      const results = await axeAudit(page).analyze();
      const serious = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 100)}`).join(' | ')}`);
      assert.deepEqual(serious, [], `${name} at ${width} px`);
      const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      assert.ok(scrollWidth <= width, `${name} at ${width} px is ${scrollWidth} px wide: something is off screen`);
      for (const control of await dashboard.controls().all()) {
        if (!(await control.isVisible())) continue;
        const box = await control.boundingBox();
        const label = (await control.getAttribute('aria-label')) ?? (await control.innerText().catch(() => '')) ?? '';
        assert.ok(
          box && box.x >= 0 && box.x + box.width <= width + 0.5,
          `${name} at ${width} px: "${label}" is off screen (${JSON.stringify(box)})`,
        );
      }
      await app.browser.screenshot(`enforcement-${name}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it(
    'bans with no bouncer polling: the dashboard banner says they are not enforced, links to ' +
      'the keys, and the key reads "Never polled"',
    async () => {
      const { page } = app;
      fw1 = await makeBouncerKey('fw1');
      await post('firewall:banIp', { ip: '198.51.100.20', duration: 3600, reason: 'SIP scanner' });
      await app.open();
      const banner = await visible(dashboard.banner);
      assert.match(await banner.innerText(), /1 ban is not being enforced: no bouncer or router feed is fetching them/);
      await eventually(
        () => dashboard.bouncerState('fw1').textContent(),
        (t) => t === 'Never polled',
        'fw1 "Never polled"',
      );
      await checkLayout(page, 'dashboard-banner', () => visible(dashboard.banner));

      await dashboard.openKeysFromBanner();
      assert.equal(new URL(page.url()).pathname, '/api-keys');

      // fw1 should receive it but never polled: counted, with why, in the warning colour.
      await app.open('/bans');
      const cell = bans.delivery('198.51.100.20');
      assert.equal(await (await visible(cell)).innerText(), '0 of 1: fw1 has never polled');
      const colour = await bans
        .paragraph(cell)
        .evaluate(
          (element) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(element)
              .color,
        );
      const [r, g, b] = colour.match(/\d+/g)!.map(Number) as [number, number, number];
      assert.ok(r > b && g > b, `"0 of 1" is in the warning colour (${colour})`);
    },
  );

  it('a bouncer that polls is "Served" (the banner goes) and each ban it was sent reads "1 of 2: fw1 has never polled" with its name', async () => {
    const { server, page } = app;
    fw2 = await makeBouncerKey('fw2');
    const answer = await poll(server, fw2.key, '?startup=true');
    assert.ok(
      answer.new.some((d) => d.value === '198.51.100.20'),
      'the ban is in the answer',
    );

    await app.open();
    await eventually(
      () => dashboard.bouncerState('fw2').textContent(),
      (t) => t === 'Served',
      'fw2 "Served"',
      20_000,
    );
    await eventually(
      () => dashboard.banner.count(),
      (n) => n === 0,
      'the banner gone once a bouncer is served',
    );

    // The server learns the delivery once the cursor is written (within a second); the list refreshes every 10 s.
    await eventually(
      async () =>
        ((await server.call(`${V3}firewall:getBannedIps`)).json.data as BannedIp[]).find(
          (b) => b.ip === '198.51.100.20',
        )?.delivery,
      (d) => d?.served === 1 && d.of === 2,
      'the ban delivered to fw2 (API)',
    );
    await app.open('/bans');
    const cell = bans.delivery('198.51.100.20');
    await eventually(
      () => cell.innerText(),
      (t) => t === '1 of 2: fw1 has never polled',
      'the Delivered cell "1 of 2: fw1 has never polled"',
      20_000,
    );
    await cell.click();
    await bans.see('Sent to fw2.');
    await bans.see('Not sent: fw1 has never polled.');
    await page.keyboard.press('Escape');
  });

  it('a bouncer that stops polling reads "Silent since HH:MM" in orange after 30 s, and the banner is back', async () => {
    const { server, page } = app;
    // Age the stored last poll by 31 s rather than wait: the status is read from SQLite in a worker.
    server.server.services.firewall!.cursors.flush();
    server.server.services.db
      .prepare('UPDATE bouncer_cursors SET last_poll_at = last_poll_at - 31000 WHERE key_id = ?')
      .run(fw2.id);
    const lastPollAt = (await server.call(`${V3}firewall:getBouncerStatus`)).json.data.bouncers.find(
      (b: { keyId: number }) => b.keyId === fw2.id,
    ).lastPollAt as string;
    const expected = await page.evaluate(
      (at) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false }),
      lastPollAt,
    );

    await app.open();
    const badge = dashboard.bouncerState('fw2');
    await eventually(
      () => badge.textContent(),
      (t) => t === `Silent since ${expected}`,
      `fw2 "Silent since ${expected}"`,
      20_000,
    );
    const colour = await badge.evaluate(
      (element) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(
          element,
        ).backgroundColor,
    );
    const [r, g, b] = colour.match(/\d+/g)!.map(Number) as [number, number, number];
    assert.ok(r > g && g > b, `the Silent badge is orange (${colour})`);
    assert.match(await (await visible(dashboard.banner)).innerText(), /1 ban is not being enforced/);
  });

  it(
    '"Why is this address blocked?" lists a filter entry, a range ban (time left, bouncers ' +
      'sent) and what protects an address; a malformed one gets the 400 under the field',
    async () => {
      const { server, page } = app;
      await post('firewall', { permit: '192.0.2.0/24', deny: '203.0.113.0/24', description: 'Blocklist' });
      await post('firewall', { permit: '10.77.0.0/16', description: 'Head office', newer_block_ip: true });
      const whitelisted = await server.call(`${V3}fail2ban`, { method: 'PATCH', body: { whitelist: '10.77.5.0/24' } });
      assert.equal(whitelisted.status, 200, whitelisted.text);
      await post('firewall:banIp', { ip: '100.64.0.0/24', duration: 7200, reason: 'Toll fraud range' });
      await poll(server, fw2.key);
      await eventually(
        async () =>
          (await server.call(`${V3}firewall:lookup?ip=100.64.0.9`)).json.data.decisions[0]?.delivery.served as
            | number
            | undefined,
        (served) => served === 1,
        'the range ban delivered to fw2 (API)',
      );

      await app.open('/bans');
      const field = await visible(bans.lookupField);
      const ask = async (address: string) => {
        await bans.lookUp(address);
        return visible(bans.lookupAnswer(address));
      };

      const filtered = await ask('203.0.113.9');
      const filterEntry = await bans.lookupDecision(filtered).innerText();
      assert.match(filterEntry, /Network filter 'Blocklist' 203\.0\.113\.0\/24/);
      assert.match(filterEntry, /never ends/);
      assert.match(filterEntry, /sent to 1 of 2 bouncers: fw2; fw1 has never polled/);

      const ranged = await ask('100.64.0.9');
      const rangeBan = await bans.lookupDecision(ranged).innerText();
      await checkLayout(page, 'bans-lookup-range', () => visible(bans.lookupDecision()));
      assert.match(rangeBan, /Manual ban of the range 100\.64\.0\.0\/24/);
      assert.match(rangeBan, /(1 h 59 min|2 h 00 min) left/);
      assert.match(rangeBan, /sent to 1 of 2 bouncers: fw2; fw1 has never polled/);
      assert.match(rangeBan, /Toll fraud range/);

      const kept = await ask('10.77.5.1');
      assert.match(await kept.innerText(), /Nothing blocks 10\.77\.5\.1/);
      const protections = (await bans.lookupProtection(kept).allInnerTexts()).sort();
      assert.deepEqual(protections, ["Trusted network 'Head office' 10.77.0.0/16", 'Whitelist 10.77.5.0/24']);
      await checkLayout(page, 'bans-lookup', () => visible(bans.lookupProtection()));

      const loopback = await ask('127.0.0.1');
      assert.match(await loopback.innerText(), /this host's own loopback address: it is never banned/);

      assert.match(await (await ask('192.0.2.200')).innerText(), /Nothing blocks 192\.0\.2\.200/);

      await bans.lookUp('not-an-ip');
      const error = await eventually(
        () => field.getAttribute('aria-describedby'),
        (id) => id !== null && id !== '',
        'the field described by an error',
      );
      const message = await bans.byId(error!.split(' ').find((id) => id.includes('error')) ?? error!).innerText();
      assert.match(message, /"not-an-ip" is not an address: type one IPv4 or IPv6 address/);
      assert.equal(await bans.lookupAnswer().count(), 0, 'no answer shown beside the error');
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
    },
  );

  it(
    'a key that polled and then expired reads "Refused … key expired" (not green), the refused ' +
      'box names the key, and the banner is back',
    async () => {
      const { server, page } = app;
      // An expiry an hour ahead (accepted however slow the machine), then the hour passes: the
      // stored expiry moves a second into the past (keys are read from the file at each call).
      const expiry = new Date(Date.now() + 3_600_000).toISOString();
      const edited = await server.call(`${V3}api-keys/${fw2.id}`, {
        method: 'PATCH',
        body: { description: 'fw2', expires_at: expiry },
      });
      assert.equal(edited.status, 200, edited.text);
      server.server.services.db
        .prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?')
        .run(new Date(Date.now() - 1000).toISOString(), fw2.id);
      const refused = await server.call(STREAM, { headers: { 'X-Api-Key': fw2.key } });
      assert.equal(refused.status, 401, refused.text);

      await app.open();
      const row = dashboard.bouncer('fw2');
      await eventually(
        () => dashboard.bouncerState('fw2').textContent(),
        (t) => t === 'Refused',
        'fw2 "Refused"',
        20_000,
      );
      const refusal = await dashboard.bouncerRefusal('fw2').innerText();
      assert.match(refusal, /Refused: key expired \(key “fw2”\)/);
      // Not green: the state badge is the filled red of a refusal, not the teal of a served bouncer.
      const badgeColour = await dashboard
        .bouncerState('fw2')
        .evaluate(
          (element) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(
              element,
            ).backgroundColor,
        );
      const [r, g, b] = badgeColour.match(/\d+/g)!.map(Number) as [number, number, number];
      assert.ok(r > g && r > b, `the Refused badge is red, not green (${badgeColour})`);
      assert.equal(await row.getAttribute('data-state'), 'refused');

      const box = await visible(dashboard.rejections);
      assert.match(await box.innerText(), /Key “fw2”: .*expired/);
      const banner = await visible(dashboard.banner);
      assert.match(await banner.innerText(), /2 bans are not being enforced/);
      assert.match(await banner.innerText(), /One bouncer is refused/);
      await checkLayout(page, 'dashboard-refused', () => visible(dashboard.bouncerRefusal()));

      // A disabled key's polls: "Refused: key disabled", named.
      const disabled = await server.call(`${V3}api-keys/${fw1.id}`, {
        method: 'PATCH',
        body: { description: 'fw1', enabled: false },
      });
      assert.equal(disabled.status, 200, disabled.text);
      assert.equal((await server.call(STREAM, { headers: { 'X-Api-Key': fw1.key } })).status, 401);
      await eventually(
        () => dashboard.bouncerState('fw1').textContent(),
        (t) => t === 'Refused',
        'fw1 "Refused"',
        20_000,
      );
      assert.match(await dashboard.bouncerRefusal('fw1').innerText(), /Refused: key disabled \(key “fw1”\)/);
    },
  );
});
