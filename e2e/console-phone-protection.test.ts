// Registered phones are never cut off (issue 3/6, item 5): the Peers page lists the protected
// addresses with their phones, the Dashboard the accounts failing behind them, and the ban dialog
// names the phones a ban would cut off before it bans. At 1440 and 390 px, with no serious axe violation.
import { seriousViolations } from './support/axe.ts';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { AmiTestServer } from '../src-server/test-support/ami-server.ts';
import type { TestServer } from '../src-server/test-support/server.ts';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const OFFICE = '198.51.100.10';
const WIDTHS = [1440, 390];

async function fits(page: Page, width: number, what: string): Promise<void> {
  const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  assert.ok(scrollWidth <= width, `${what} at ${width} px is ${scrollWidth} px wide`);
}

let ami: AmiTestServer;

/** An office behind one address: 101 and 103 registered, 102 failing with a stale password. */
async function officeWithFailingPhone(server: TestServer): Promise<void> {
  ami = await AmiTestServer.start();
  ami.endpoints.set('101', { deviceState: 'Not in use', contact: { uri: `sip:101@${OFFICE}:5060` } });
  ami.endpoints.set('103', { deviceState: 'Not in use', contact: { uri: `sip:103@${OFFICE}:5062` } });
  const rules = await server.call(`${V3}fail2ban`, { method: 'PATCH', body: { maxretry: 3 } });
  assert.equal(rules.status, 200, rules.text);
  const saved = await server.call(`${V3}ami`, {
    method: 'PUT',
    body: { enabled: true, host: ami.host, port: ami.port, username: 'admin', secret: 'amp111' },
  });
  assert.equal(saved.status, 200, saved.text);
  const protection = async () => (await server.call(`${V3}firewall:getPhoneProtection`)).json.data;
  await eventually(protection, (p) => p.addresses.length === 1, 'the office protected');
  for (let i = 0; i < 3; i++)
    ami.emitEvent({
      Event: 'InvalidPassword',
      Service: 'PJSIP',
      AccountID: '102',
      RemoteAddress: `IPV4/UDP/${OFFICE}/5060`,
    });
  await eventually(protection, (p) => p.flags.length === 1, 'account 102 flagged');
}

describe('console: registered phones are never cut off', () => {
  const app = useConsole({ prepare: officeWithFailingPhone });
  const { bans, settings } = app.screens;
  after(() => ami?.close());

  it('the Dashboard names the account failing behind registered phones', async () => {
    const { page, browser } = app;
    await app.open('/');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      const card = await visible(page.getByTestId('flagged-accounts'));
      assert.match(await card.innerText(), /Account 102 fails from 198\.51\.100\.10, where 101 and 103 are registered/);
      assert.equal((await page.getByTestId('flagged-count').textContent())?.trim(), '1 flagged');
      assert.deepEqual(await seriousViolations(page), [], `Dashboard at ${width} px`);
      await fits(page, width, 'Dashboard');
      await browser.screenshot(`phone-protection-dashboard-${width}`);
    }
  });

  it('the Peers page lists the protected addresses with their phones', async () => {
    const { page, browser } = app;
    await app.open('/peers');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await page.getByRole('tab', { name: /Protected addresses \(1\)/ }).click();
      const row = await visible(page.getByTestId('protected-address-row').filter({ hasText: OFFICE }));
      const text = await row.innerText();
      assert.match(text, /101 registered/);
      assert.match(text, /103 registered/);
      assert.deepEqual(await seriousViolations(page), [], `Peers at ${width} px`);
      await fits(page, width, 'Peers');
      await browser.screenshot(`phone-protection-peers-${width}`);
    }
  });

  it('the ban dialog names the phones a ban would cut off, bans nothing, and bans once confirmed', async () => {
    const { page, server, browser } = app;
    await page.setViewportSize({ width: 390, height: 844 });
    await app.open('/bans');
    const dialog = await bans.openBan();
    await dialog.fill({ address: OFFICE, duration: '1', unit: 'h' });
    await dialog.submit();
    const warning = await visible(page.getByRole('dialog').getByText(/would cut off registered phones/));
    assert.match(await warning.innerText(), /198\.51\.100\.10 \(phones 101 and 103\)/);
    assert.doesNotMatch(await warning.innerText(), /confirmCutOff/, 'the API hint is not shown');
    const lookup = async () => (await server.call(`${V3}firewall:lookup?ip=${OFFICE}`)).json.data;
    assert.equal((await lookup()).blocked, false, 'nothing banned yet');
    assert.deepEqual(await seriousViolations(page, '[role="dialog"]'), [], 'the warning at 390 px');
    await browser.screenshot('phone-protection-ban-warning-390');

    await page.getByRole('dialog').getByRole('button', { name: 'Ban anyway' }).click();
    await bans.dialogsClosed();
    await eventually(lookup, (l) => l.blocked === true, 'banned once confirmed');
  });

  it('the import preview names the phones the list would cut off, and importing after it confirms', async () => {
    const { page, server } = app;
    await page.setViewportSize({ width: 1440, height: 900 });
    await app.open('/bans');
    const dialog = await bans.openImport();
    await dialog.list('203.0.113.77\n198.51.100.0/24');
    await dialog.button('Preview').click();
    await dialog.outcome();
    const warnings = await visible(page.getByTestId('import-warnings'));
    assert.match(
      await warnings.innerText(),
      /would cut off registered phones at 198\.51\.100\.10 \(phones 101 and 103\)/,
    );
    const lookup = async (ip: string) => (await server.call(`${V3}firewall:lookup?ip=${ip}`)).json.data;
    assert.equal((await lookup('203.0.113.77')).blocked, false, 'a preview imports nothing');
    await dialog.button('Import anyway').click();
    await bans.dialogsClosed();
    await eventually(
      () => lookup('203.0.113.77'),
      (l) => l.blocked === true,
      'imported once confirmed',
    );
  });

  it('Settings: the protection and its grace time, a value out of bounds refused under its field', async () => {
    const { page, server } = app;
    await page.setViewportSize({ width: 1440, height: 900 });
    await app.open();
    await settings.show();
    const form = await settings.form('Ban rules');
    const minutes = 'Minutes protected after the last phone leaves';
    await form.field(minutes).fill('61');
    await form.save('Save ban rules');
    await eventually(
      () => form.wrapper(minutes).innerText(),
      (text) => /at most 60 min/.test(text),
      'the refusal under the field',
    );
    const stored = async () => (await server.call(`${V3}fail2ban`)).json.data as Record<string, unknown>;
    assert.equal((await stored()).registeredLingerMinutes, 5, 'nothing stored');
    await form.field(minutes).fill('15');
    await form.toggle('Never ban an address with registered phones');
    await form.save('Save ban rules');
    await eventually(stored, (s) => s.protectRegistered === false, 'the protection off');
    assert.equal((await stored()).registeredLingerMinutes, 15);
  });
});
