// Issue 3/6 item 3 in the console: neighbourhood escalation in the ban rules (Settings), refused
// out of bounds under its field, and an escalated subnet ban marked on the Bans page. Each screen
// is checked with axe (no serious or critical violation) and for sideways overflow at 1440 and 390 px.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seriousViolations } from './support/axe.ts';
import type { Page } from 'playwright-core';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const WIDTHS = [1440, 390] as const;

describe('console: neighbourhood escalation', () => {
  const app = useConsole({ server: { adminPassword: 'ban-escalation-e2e-password' } });
  const { settings, bans } = app.screens;
  const fail2ban = async () => (await app.server.call(`${V3}fail2ban`)).json.data as Record<string, unknown>;

  /** axe and sideways overflow at both widths, then back to desktop. */
  async function checkWidths(page: Page, what: string, ready: () => Promise<unknown>) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await ready();
      // axe measures colours only once the resize's transitions have ended (a function: the CSP forbids eval).
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { getAnimations(): Array<{ playState: string }> } }).document
            .getAnimations()
            .every((animation) => animation.playState !== 'running'),
        undefined,
        { timeout: 5000 },
      );
      assert.deepEqual(await seriousViolations(page), [], `${what} at ${width} px`);
      const wide = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      assert.ok(wide <= width, `${what} at ${width} px is ${wide} px wide`);
      await app.browser.screenshot(`ban-escalation-${what.replace(/\W+/g, '-')}-${width}`);
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  }

  it('Settings: the switch shows the escalation fields; 1 address is refused under its field; 3 within 2 h saves', async () => {
    const { page } = app;
    await app.open();
    await settings.show();
    const form = await settings.form('Ban rules');
    assert.equal(await form.field('Banned addresses that trigger it').count(), 0, 'hidden while off');
    await form.toggle('Ban the whole subnet when several of its addresses are banned');
    await form.field('Banned addresses that trigger it').fill('1');
    await form.save('Save ban rules');
    await eventually(
      () => form.wrapper('Banned addresses that trigger it').innerText(),
      (text) => /at least 2/i.test(text),
      'the refusal under its field',
    );
    assert.equal((await fail2ban()).escalation, false, 'nothing saved');
    await checkWidths(page, 'settings escalation refused', () => settings.form('Ban rules'));
    await form.field('Banned addresses that trigger it').fill('3');
    await form.duration('Within', '2', 'h');
    await form.field('IPv4 subnet size (prefix)').fill('24');
    await form.save('Save ban rules');
    await eventually(fail2ban, (s) => s.escalation === true, 'escalation saved');
    await checkWidths(page, 'settings escalation', () => settings.form('Ban rules'));
    const stored = await fail2ban();
    assert.deepEqual(
      [stored.escalationBans, stored.escalationWindow, stored.escalationIpv4Prefix, stored.escalationIpv6Prefix],
      [3, 7200, 24, 48],
    );
  });

  it('Bans: an escalated subnet ban is marked, its single bans are gone; unbanning it lifts it', async () => {
    const { server, page } = app;
    const rules = await server.call(`${V3}fail2ban`, {
      method: 'PATCH',
      body: { maxretry: 1, bantime: 600, escalation: true, escalationBans: 3, escalationWindow: 3600 },
    });
    assert.equal(rules.status, 200, rules.text);
    for (const ip of ['198.51.100.11', '198.51.100.12', '198.51.100.13'])
      server.server.services.bus.emit({ type: 'security-failure', category: 'sip', ip, reason: 'Wrong SIP password' });
    server.server.services.bus.emit({
      type: 'security-failure',
      category: 'sip',
      ip: '203.0.113.5',
      reason: 'Wrong SIP password',
    });
    await app.open('/bans');
    const row = await visible(bans.row('198.51.100.0/24'));
    assert.equal(await bans.escalatedMark(row).textContent(), 'Escalated from 3 bans');
    assert.match(await row.innerText(), /escalated: 3 bans in 198\.51\.100\.0\/24 within 1 h/);
    assert.equal(await bans.escalatedMark(await visible(bans.row('203.0.113.5'))).count(), 0, 'a single ban is not');
    assert.equal(await bans.row('198.51.100.11').count(), 0, 'the single bans were replaced');
    await checkWidths(page, 'bans', () => visible(bans.row('198.51.100.0/24')));

    await bans.unban('198.51.100.0/24');
    await eventually(
      () => bans.row('198.51.100.0/24').count(),
      (n) => n === 0,
      'the subnet ban lifted',
    );
  });
});
