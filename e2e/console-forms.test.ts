// Forms a technician trusts (issue 6/6 item 7): the ban dialog asks before Esc drops what was typed; a per-service
// duration takes the unit its placeholder shows; a preset that would clear per-service values asks first; a list's
// entries are counted from 1 in errors. Each screen checked with axe at 1440 and 390 px.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import { useConsole } from './support/console-session.ts';
import { dismissNotifications, eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: forms', () => {
  const app = useConsole({ openAt: '/bans' });
  const { settings, bans } = app.screens;
  const fail2ban = async () => (await app.server.call(`${V3}fail2ban`)).json.data as Record<string, unknown>;

  /** No serious or critical axe violation at 1440 and 390 px; a screenshot of each when named. */
  async function axeAtBothWidths(name?: string) {
    const { page, browser } = app;
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await dismissNotifications(page);
      if (name) await browser.screenshot(`${name}-${width}`);
      const result = await axeAudit(page).analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(
        bad.map((v) => `${v.id} at ${width}px`),
        [],
      );
    }
    await page.setViewportSize({ width: 1360, height: 900 });
  }

  it('the ban dialog asks before Esc drops what was typed, and keeps it on "Keep editing"', async () => {
    const { page, server } = app;
    const dialog = await bans.openBan();
    await dialog.fill({ address: '203.0.113.9', reason: 'Scanner' });
    await page.keyboard.press('Escape');
    const ask = await visible(page.getByRole('alertdialog', { name: 'Discard your changes?' }));
    await axeAtBothWidths();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    assert.equal(await dialog.address.inputValue(), '203.0.113.9', 'what was typed is still there');
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Discard' }).click();
    await bans.dialogsClosed();
    const banned = (await server.call(`${V3}firewall:getBannedIps`)).json.data as unknown[];
    assert.equal(banned.length, 0, 'nothing was banned');
    // An untouched dialog closes on Esc at once.
    await bans.openBan();
    await page.keyboard.press('Escape');
    await bans.dialogsClosed();
  });

  it('a per-service duration takes the unit of its placeholder; a preset that would clear it asks first', async () => {
    const { page } = app;
    await app.open('/settings');
    await settings.show();
    const form = await settings.form('Ban rules');
    const length = form.categoryRule('SIP: ban length');
    const placeholder = (await length.getAttribute('placeholder')) ?? '';
    const unit = form.root.getByRole('combobox', { name: 'Unit of sip: ban length' });
    const shownUnit = /^\d+ (\w+) \(global\)$/.exec(placeholder)?.[1];
    assert.ok(shownUnit, `the placeholder names a unit: "${placeholder}"`);
    assert.equal(await unit.inputValue(), shownUnit, 'the unit beside the placeholder is the placeholder’s');
    await length.fill('2');
    await form.categoryRule('SIP: failures').fill('4');

    await form.preset('Paranoid');
    const ask = await visible(page.getByRole('dialog', { name: 'Use the Paranoid preset?' }));
    assert.match(await ask.innerText(), /SIP has its own failures, window or ban duration/);
    await axeAtBothWidths('preset-confirm');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await settings.dialogsClosed();
    assert.equal(await form.categoryRule('SIP: failures').inputValue(), '4', 'Cancel keeps the per-service values');

    await form.save('Save ban rules');
    await eventually(fail2ban, (s) => JSON.stringify(s.categories).includes('"sip"'), 'the SIP rule saved');
    const seconds = { s: 1, min: 60, h: 3600, d: 86_400 }[shownUnit as 's'];
    assert.deepEqual((await fail2ban()).categories, { sip: { maxretry: 4, bantime: 2 * seconds } });

    await form.preset('Paranoid');
    await page
      .getByRole('dialog', { name: 'Use the Paranoid preset?' })
      .getByRole('button', { name: /clear them/ })
      .click();
    assert.equal(await form.categoryRule('SIP: failures').inputValue(), '');
  });

  it('an error about a list entry counts from 1', async () => {
    await app.open('/settings');
    await settings.show();
    const form = await settings.form('Ban rules');
    if (!(await form.root.getByRole('switch', { name: 'Ban repeat offenders longer' }).isChecked()))
      await form.toggle('Ban repeat offenders longer');
    await form.field('Multipliers').fill('1 two 4');
    await form.save('Save ban rules');
    await eventually(
      () => form.wrapper('Multipliers').innerText(),
      (text) => /Value 2: each multiplier must be a number/.test(text),
      'the refusal naming the 2nd value',
    );
  });

  it('Settings has one save bar: it names the forms not saved, saves them all, and a reload or close asks first', async () => {
    const { page, server } = app;
    await app.open('/settings');
    await settings.show();
    const bar = page.getByRole('region', { name: 'Unsaved changes' });
    await visible(bar.getByText('Every change is saved.'));
    assert.equal(
      await page.getByRole('button', { name: /^Save (ban rules|retention|queue limits|AMI connection)/ }).count(),
      0,
    );
    const leaving = () =>
      page.evaluate(
        `(() => { const e = new Event('beforeunload', { cancelable: true }); window.dispatchEvent(e); return e.defaultPrevented; })()`,
      );
    assert.equal(await leaving(), false, 'nothing to lose: a reload goes on');

    const rules = await settings.form('Ban rules');
    await rules.field('Failures before a ban', true).fill('9');
    const retention = await settings.form('Retention');
    await retention.field('Keep audit log for').fill('45');
    await visible(bar.getByText('Not saved: Ban rules, Retention'));
    assert.equal(await leaving(), true, 'a reload or closing the tab asks first');
    await axeAtBothWidths('settings-save-bar');

    await bar.getByRole('button', { name: 'Save changes' }).click();
    await visible(bar.getByText('Every change is saved.'));
    assert.equal((await fail2ban()).maxretry, 9);
    const general = (await server.call(`${V3}general-settings`)).json.data as Record<string, unknown>;
    assert.equal(general.auditRetentionDays, 45);
    assert.equal(await leaving(), false);

    // A refused value stays listed, its error under its field, and nothing is stored.
    await rules.field('Failures before a ban', true).fill('0');
    await bar.getByRole('button', { name: 'Save changes' }).click();
    await visible(rules.wrapper('Failures before a ban', true).getByText(/must be/i));
    await visible(bar.getByText('Not saved: Ban rules'));
    assert.equal((await fail2ban()).maxretry, 9);
    await bar.getByRole('button', { name: 'Discard' }).click();
    assert.equal(await rules.field('Failures before a ban', true).inputValue(), '9');
  });

  it('a ban that clashes with a whitelist entry links to it, with its comment and end in the console format', async () => {
    const { page, server } = app;
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const patched = await server.call(`${V3}fail2ban`, {
      method: 'PATCH',
      body: { whitelistEntries: [{ value: '192.0.2.0/24', comment: 'Customer office', until }] },
    });
    assert.equal(patched.status, 200, patched.text);
    await app.open('/bans');
    const dialog = await bans.openBan();
    await dialog.fill({ address: '192.0.2.77' });
    await dialog.submit();
    const link = await visible(dialog.root.getByRole('link', { name: '192.0.2.0/24' }));
    const error = await dialog.root.getByText(/overlaps the whitelisted/).innerText();
    assert.match(error, /"Customer office", until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+\)/);
    assert.doesNotMatch(error, /T\d\d:\d\d|Whitelist page/);
    await axeAtBothWidths('ban-whitelist-clash');
    await link.click();
    await visible(page.getByRole('heading', { level: 1, name: 'Whitelist' }));
    assert.equal(await page.getByRole('searchbox', { name: 'Search whitelist entries' }).inputValue(), '192.0.2.0/24');
    await visible(page.getByTestId('whitelist-entry').filter({ hasText: 'Customer office' }));
    assert.equal((await server.call(`${V3}firewall:getBannedIps`)).json.data.length, 0, 'nothing was banned');
  });

  it('the Expires field is 24-hour local time in the one format; a US time is refused under it and nothing stored', async () => {
    const { page, server } = app;
    const expires = new Date(Date.now() + 30 * 86_400_000);
    expires.setMilliseconds(0);
    const made = await server.call(`${V3}api-keys`, {
      method: 'POST',
      body: {
        description: 'expiring key',
        allowed_paths: { '/api/v3/firewall': 'read' },
        expires_at: expires.toISOString(),
      },
    });
    assert.ok(made.status < 300, made.text);
    await app.open('/api-keys');
    await app.screens.apiKeys.action('expiring key', 'Edit…');
    const dialog = await visible(page.getByRole('dialog', { name: 'Edit “expiring key”' }));
    const field = dialog.getByRole('textbox', { name: 'Expires' });
    assert.match(await field.inputValue(), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await field.fill('12/31/2030 06:00 PM');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await visible(dialog.getByText(/Write it as 2026-12-31 18:00 \(24-hour/));
    await axeAtBothWidths();
    const stored = (await server.call(`${V3}api-keys`)).json.data as Array<{ expires_at: string }>;
    assert.equal(Date.parse(stored[0]!.expires_at), expires.getTime(), 'nothing stored');
    await field.fill('2030-12-31 18:00');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('dialog').first().waitFor({ state: 'detached' });
    const saved = (await server.call(`${V3}api-keys`)).json.data as Array<{ expires_at: string }>;
    assert.equal(Date.parse(saved[0]!.expires_at), new Date(2030, 11, 31, 18, 0).getTime());
  });
});
