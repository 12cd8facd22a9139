// Issue 20 in the console: the preset choice and the per-service rule table (Settings), repeat
// offenders shown as "3rd ban" in Bans and Ban history, "Unban and whitelist" on a banned row, and
// whitelist entries with a comment and an end (Whitelist). Each screen and dialog is checked with
// axe (no serious or critical violation) at 1280 and 390 px.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seriousViolations } from './support/axe.ts';
import type { Page } from 'playwright-core';
import { Screen } from './pages/screen.ts';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const WIDTHS = [1280, 390] as const;

/** Waits for a dialog's opening transition to end, so axe measures its real colours. */
async function settledDialog(page: Page) {
  const screen = new Screen({ page });
  const dialog = await visible(screen.dialog());
  await screen.settled();
  return dialog;
}

describe('console: ban policy', () => {
  const app = useConsole({ server: { adminPassword: 'ban-policy-e2e-password' } });
  const { settings, bans, whitelist } = app.screens;
  const fail2ban = async () => (await app.server.call(`${V3}fail2ban`)).json.data as Record<string, unknown>;

  /** axe and sideways overflow at both widths, then back to desktop. */
  async function checkWidths(page: Page, what: string, ready: () => Promise<unknown>) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await ready();
      // A resize starts transitions (the 390 px layout); axe measures colours only once they have ended.
      // (A function, not a string: the console's CSP forbids eval. The e2e tsconfig has no DOM types.)
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
      await app.browser.screenshot(`ban-policy-${what.replace(/\W+/g, '-')}-${width}`);
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  }

  it(
    'Settings: a preset fills the rules, a per-service value makes it Custom, a bad multiplier ' +
      'list is refused under its field',
    async () => {
      const { page } = app;
      await app.open();
      await settings.show();
      const form = await settings.form('Ban rules');
      // The segments' radios are visually hidden: an operator clicks the label.
      await form.preset('Paranoid');
      assert.equal(await form.field('Failures before a ban', true).inputValue(), '3');
      await checkWidths(page, 'settings ban rules', () => settings.form('Ban rules'));
      await form.save('Save ban rules');
      await settings.see('Ban rules saved');
      let stored = await fail2ban();
      assert.deepEqual(
        [stored.maxretry, stored.findtime, stored.bantime, stored.preset],
        [3, 86_400, 2_592_000, 'paranoid'],
      );

      await form.categoryRule('HTTP (web): failures').fill('10');
      assert.equal(await form.radio('Custom').isChecked(), true, 'Custom as soon as a value differs');
      await form.toggle('Ban repeat offenders longer');
      await form.field('Multipliers').fill('1 two 4');
      await form.save('Save ban rules');
      await eventually(
        () => form.wrapper('Multipliers').innerText(),
        (text) => /must be a number/i.test(text),
        'the refusal under Multipliers',
      );
      await form.field('Multipliers').fill('1 2 4');
      await form.save('Save ban rules');
      await eventually(fail2ban, (s) => Array.isArray(s.bantimeMultipliers), 'the multipliers saved');
      stored = await fail2ban();
      assert.deepEqual(stored.categories, { http: { maxretry: 10 } });
      assert.deepEqual(stored.bantimeMultipliers, [1, 2, 4]);
      assert.equal(stored.preset, 'custom');
    },
  );

  it('Bans and Ban history show "3rd ban"; "Unban and whitelist" lifts the ban and adds the entry with its comment and end', async () => {
    const { server, page } = app;
    const rules = await server.call(`${V3}fail2ban`, {
      method: 'PUT',
      body: { maxretry: 1, bantime: 600, findtime: 600, bantimeIncrement: true, bantimeMultipliers: [1, 2, 4] },
    });
    assert.equal(rules.status, 200, rules.text);
    const ip = '198.51.100.77';
    const fail = () =>
      server.server.services.bus.emit({ type: 'security-failure', category: 'sip', ip, reason: 'Wrong SIP password' });
    for (let i = 0; i < 2; i++) {
      fail();
      assert.equal((await server.call(`${V3}firewall:unbanIp`, { method: 'POST', body: { ip } })).status, 200);
    }
    fail();
    await app.open('/bans');
    const row = await visible(bans.row(ip));
    assert.equal(await bans.banNumber(row).textContent(), '3rd ban');
    await checkWidths(page, 'bans', () => visible(bans.row(ip)));

    await app.open('/bans/history');
    const history = bans.banNumber();
    await eventually(
      async () => (await history.allTextContents()).join(','),
      (t) => t.includes('3rd ban') && t.includes('2nd ban') && t.includes('1st ban'),
      'ranks in the history',
    );

    await app.open('/bans');
    await visible(bans.row(ip));
    await bans.unbanAndWhitelist(ip);
    const dialog = await settledDialog(page);
    const form = settings.formIn(dialog);
    assert.equal(await form.heading(), `Unban and whitelist ${ip}?`);
    await form.field('Comment').fill('Customer office during the migration');
    await form.duration('Whitelisted for', '2', 'd');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      assert.deepEqual(await seriousViolations(page), [], `Unban and whitelist dialog at ${width} px`);
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await form.save('Unban and whitelist');
    await bans.see('Unbanned and whitelisted');
    await eventually(
      () => bans.row(ip).count(),
      (n) => n === 0,
      'the row gone',
    );
    const entries = (await fail2ban()).whitelistEntries as Array<{ value: string; comment: string; until: string }>;
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.comment, 'Customer office during the migration');
    const days = (Date.parse(entries[0]!.until) - Date.now()) / 86_400_000;
    assert.ok(days > 1.99 && days <= 2, `ends in two days (${days})`);
  });

  it('Whitelist: entries show their comment and end; one is added for good and one removed', async () => {
    const { page } = app;
    await app.open();
    await whitelist.show();
    const entry = await visible(whitelist.entry('198.51.100.77'));
    assert.match(await entry.innerText(), /Customer office during the migration/);
    assert.match(await entry.innerText(), /in 1 d 23 h|in 2 d/);
    await whitelist.press('Add to whitelist');
    const form = settings.formIn(await settledDialog(page));
    await form.field('Address or network').fill('10.20.0.0/16');
    await form.field('Comment').fill('Head office LAN');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      assert.deepEqual(await seriousViolations(page), [], `Add to whitelist dialog at ${width} px`);
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await form.save('Add to whitelist');
    const office = await visible(whitelist.entry('10.20.0.0/16'));
    assert.match(await office.innerText(), /Head office LAN/);
    assert.match(await office.innerText(), /Never/);
    await eventually(
      async () => (await whitelist.effective.innerText()).includes('10.20.0.0/16'),
      Boolean,
      'the entry in the effective whitelist',
    );
    await checkWidths(page, 'whitelist', async () => {
      // The Add dialog fades out after the save: axe must not judge its half-transparent button.
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      return visible(whitelist.entry().first());
    });

    await whitelist.press('Remove 198.51.100.77');
    await settings.formIn(await settledDialog(page)).save('Remove');
    await eventually(
      () => whitelist.entry('198.51.100.77').count(),
      (n) => n === 0,
      'the entry removed',
    );
    assert.deepEqual(
      ((await fail2ban()).whitelistEntries as Array<{ value: string }>).map((e) => e.value),
      ['10.20.0.0/16'],
    );
  });
});
