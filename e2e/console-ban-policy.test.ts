// Issue 20 in the console: the preset choice and the per-service rule table (Settings), repeat
// offenders shown as "3rd ban" in Bans and Ban history, "Unban and whitelist" on a banned row, and
// whitelist entries with a comment and an end (Whitelist). Each screen and dialog is checked with
// axe (no serious or critical violation) at 1280 and 390 px.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { eventually, openScreen, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const WIDTHS = [1280, 390] as const;

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Waits for a dialog's opening transition to end, so axe measures its real colours. */
async function settledDialog(page: Page) {
  const dialog = await visible(page.getByRole('dialog'));
  const opacity = () =>
    page
      .locator('.mantine-Modal-content')
      .evaluate(
        (element) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(element)
            .opacity,
      );
  await eventually(opacity, (value) => value === '1', 'the dialog fully shown');
  return dialog;
}

describe('console: ban policy', () => {
  let server: TestServer;
  let browser: ConsoleBrowser;
  const fail2ban = async () => (await server.call(`${V3}fail2ban`)).json.data as Record<string, unknown>;

  /** axe and sideways overflow at both widths, then back to desktop. */
  async function checkWidths(page: Page, what: string, ready: () => Promise<unknown>) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await ready();
      assert.deepEqual(await seriousViolations(page), [], `${what} at ${width} px`);
      const wide = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      assert.ok(wide <= width, `${what} at ${width} px is ${wide} px wide`);
      await browser.screenshot(`ban-policy-${what.replace(/\W+/g, '-')}-${width}`);
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  }

  before(async () => {
    server = await startConsoleServer({ adminPassword: 'ban-policy-e2e-password' });
    browser = await launchConsoleBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it(
    'Settings: a preset fills the rules, a per-service value makes it Custom, a bad multiplier ' +
      'list is refused under its field',
    async () => {
      const { page } = browser;
      await page.goto(`${server.url}/`);
      await openScreen(page, 'Settings');
      const form = await visible(page.getByRole('form', { name: 'Ban rules' }));
      // The segments' radios are visually hidden: an operator clicks the label.
      await form.getByTestId('ban-preset').getByText('Paranoid', { exact: true }).click();
      assert.equal(await form.getByRole('textbox', { name: 'Failures before a ban', exact: true }).inputValue(), '3');
      await checkWidths(page, 'settings ban rules', () => visible(page.getByRole('form', { name: 'Ban rules' })));
      await form.getByRole('button', { name: 'Save ban rules' }).click();
      await visible(page.getByText('Ban rules saved'));
      let stored = await fail2ban();
      assert.deepEqual(
        [stored.maxretry, stored.findtime, stored.bantime, stored.preset],
        [3, 86_400, 2_592_000, 'paranoid'],
      );

      const table = form.getByTestId('category-rules');
      await table.getByRole('textbox', { name: 'HTTP (web): failures' }).fill('10');
      assert.equal(
        await form.getByRole('radio', { name: 'Custom' }).isChecked(),
        true,
        'Custom as soon as a value differs',
      );
      await form.getByRole('switch', { name: 'Ban repeat offenders longer' }).click();
      await form.getByRole('textbox', { name: 'Multipliers' }).fill('1 two 4');
      await form.getByRole('button', { name: 'Save ban rules' }).click();
      const multipliersField = form.locator('.mantine-InputWrapper-root', {
        has: page.getByRole('textbox', { name: 'Multipliers' }),
      });
      await eventually(
        () => multipliersField.innerText(),
        (text) => /must be a number/i.test(text),
        'the refusal under Multipliers',
      );
      await form.getByRole('textbox', { name: 'Multipliers' }).fill('1 2 4');
      await form.getByRole('button', { name: 'Save ban rules' }).click();
      await eventually(fail2ban, (s) => Array.isArray(s.bantimeMultipliers), 'the multipliers saved');
      stored = await fail2ban();
      assert.deepEqual(stored.categories, { http: { maxretry: 10 } });
      assert.deepEqual(stored.bantimeMultipliers, [1, 2, 4]);
      assert.equal(stored.preset, 'custom');
    },
  );

  it('Bans and Ban history show "3rd ban"; "Unban and whitelist" lifts the ban and adds the entry with its comment and end', async () => {
    const { page } = browser;
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
    await page.goto(`${server.url}/bans`);
    const row = await visible(page.getByTestId('ban-row').filter({ hasText: ip }));
    assert.equal(await row.getByTestId('ban-number').textContent(), '3rd ban');
    await checkWidths(page, 'bans', () => visible(page.getByTestId('ban-row').filter({ hasText: ip })));

    await page.goto(`${server.url}/bans/history`);
    const history = page.getByTestId('ban-number');
    await eventually(
      async () => (await history.allTextContents()).join(','),
      (t) => t.includes('3rd ban') && t.includes('2nd ban') && t.includes('1st ban'),
      'ranks in the history',
    );

    await page.goto(`${server.url}/bans`);
    await (await visible(page.getByTestId('ban-row').filter({ hasText: ip })))
      .getByRole('button', { name: `Unban and whitelist ${ip}` })
      .click();
    const dialog = await settledDialog(page);
    assert.equal(await dialog.getByRole('heading').first().innerText(), `Unban and whitelist ${ip}?`);
    await dialog.getByRole('textbox', { name: 'Comment' }).fill('Customer office during the migration');
    await dialog.getByRole('textbox', { name: 'Whitelisted for' }).fill('2');
    await dialog.getByRole('combobox', { name: 'Unit of whitelisted for' }).selectOption('d');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      assert.deepEqual(await seriousViolations(page), [], `Unban and whitelist dialog at ${width} px`);
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await dialog.getByRole('button', { name: 'Unban and whitelist' }).click();
    await visible(page.getByText('Unbanned and whitelisted'));
    await eventually(
      () => page.getByTestId('ban-row').filter({ hasText: ip }).count(),
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
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await openScreen(page, 'Whitelist');
    const entry = await visible(page.getByTestId('whitelist-entry').filter({ hasText: '198.51.100.77' }));
    assert.match(await entry.innerText(), /Customer office during the migration/);
    assert.match(await entry.innerText(), /in 1 d 23 h|in 2 d/);
    await page.getByRole('button', { name: 'Add to whitelist' }).click();
    const dialog = await settledDialog(page);
    await dialog.getByRole('textbox', { name: 'Address or network' }).fill('10.20.0.0/16');
    await dialog.getByRole('textbox', { name: 'Comment' }).fill('Head office LAN');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      assert.deepEqual(await seriousViolations(page), [], `Add to whitelist dialog at ${width} px`);
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await dialog.getByRole('button', { name: 'Add to whitelist' }).click();
    const office = await visible(page.getByTestId('whitelist-entry').filter({ hasText: '10.20.0.0/16' }));
    assert.match(await office.innerText(), /Head office LAN/);
    assert.match(await office.innerText(), /Never/);
    await eventually(
      async () => (await page.getByTestId('effective-whitelist').innerText()).includes('10.20.0.0/16'),
      Boolean,
      'the entry in the effective whitelist',
    );
    await checkWidths(page, 'whitelist', () => visible(page.getByTestId('whitelist-entry').first()));

    await page.getByRole('button', { name: 'Remove 198.51.100.77' }).click();
    await (await settledDialog(page)).getByRole('button', { name: 'Remove' }).click();
    await eventually(
      () => page.getByTestId('whitelist-entry').filter({ hasText: '198.51.100.77' }).count(),
      (n) => n === 0,
      'the entry removed',
    );
    assert.deepEqual(
      ((await fail2ban()).whitelistEntries as Array<{ value: string }>).map((e) => e.value),
      ['10.20.0.0/16'],
    );
  });
});
