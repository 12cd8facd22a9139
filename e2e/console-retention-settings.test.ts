// Retention in Settings: how long the ban history and the audit log keep their rows
// (general-settings banHistoryRetentionDays and auditRetentionDays), typed in days, saved through the
// API, and an out-of-range value refused by the server under its own field, never clamped.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { openScreen, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const BAN_HISTORY = 'Keep ban history for';
const AUDIT = 'Keep audit log for';

/** The wrapper of a labelled field: its description and error sit inside it. */
const fieldOf = (page: Page, form: Locator, name: string) =>
  form.locator('.mantine-InputWrapper-root', { has: page.getByRole('textbox', { name, exact: true }) });

describe('console: retention settings', () => {
  let server: TestServer;
  let browser: ConsoleBrowser;

  before(async () => {
    server = await startConsoleServer({ adminPassword: 'e2e-admin-password' });
    browser = await launchConsoleBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const stored = async () => (await server.call(`${V3}general-settings`)).json.data as Record<string, number>;

  /** The server's own 422 message for a value, without its field prefix (the field already names it). */
  async function serverRefusal(field: string, value: number): Promise<string> {
    const answer = await server.call(`${V3}general-settings`, { method: 'PATCH', body: { [field]: value } });
    assert.equal(answer.status, 422, answer.text);
    const message = (answer.json.messages.error as string[]).find((m) => m.startsWith(`${field}:`));
    assert.ok(message, `a message about ${field}: ${answer.text}`);
    return message.slice(field.length + 1).trim();
  }

  it('shows both retentions with the server bounds, saves new values, and refuses an out-of-range one under its field', async () => {
    const { page } = browser;
    const before = await stored();
    assert.equal(before.banHistoryRetentionDays, 90);
    assert.equal(before.auditRetentionDays, 90);

    await page.goto(`${server.url}/`);
    await openScreen(page, 'Settings');
    const form = await visible(page.getByRole('form', { name: 'Retention' }));
    const banHistory = form.getByRole('textbox', { name: BAN_HISTORY, exact: true });
    const audit = form.getByRole('textbox', { name: AUDIT, exact: true });
    assert.equal(await banHistory.inputValue(), '90');
    assert.equal(await audit.inputValue(), '90');
    // What each one does and the server's bounds are the fields' descriptions.
    const banHistoryField = fieldOf(page, form, BAN_HISTORY);
    const auditField = fieldOf(page, form, AUDIT);
    assert.match(await banHistoryField.innerText(), /bans in force never are/i);
    assert.match(await banHistoryField.innerText(), /From 1 to 3,650 days\./);
    assert.match(await auditField.innerText(), /deleted every hour/i);
    assert.match(await auditField.innerText(), /From 1 to 3,650 days\./);
    await browser.screenshot('settings-retention');

    // Both values change and are stored as typed.
    await banHistory.fill('30');
    await audit.fill('365');
    await form.getByRole('button', { name: 'Save retention' }).click();
    await visible(page.getByText('Retention saved'));
    const saved = await stored();
    assert.equal(saved.banHistoryRetentionDays, 30);
    assert.equal(saved.auditRetentionDays, 365);
    // The queue limits, saved by their own form, are untouched.
    assert.equal(saved.APIQueueMaxLength, before.APIQueueMaxLength);
    assert.equal(saved.APIRequestTTL, before.APIRequestTTL);

    // Over the audit log's maximum: the server's message shows under that field only, the value stays as typed, nothing is saved.
    const tooLong = await serverRefusal('auditRetentionDays', 5000);
    assert.match(tooLong, /3650/);
    await banHistory.fill('45');
    await audit.fill('5000');
    await form.getByRole('button', { name: 'Save retention' }).click();
    const auditError = await visible(auditField.locator('.mantine-InputWrapper-error'));
    assert.equal((await auditError.innerText()).toLowerCase(), tooLong.toLowerCase());
    assert.equal(await banHistoryField.locator('.mantine-InputWrapper-error').count(), 0);
    assert.equal(await audit.inputValue(), '5000');
    assert.equal(await audit.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await stored(), saved);

    // Under the ban history's minimum: the message moves under that field.
    const tooShort = await serverRefusal('banHistoryRetentionDays', 0);
    assert.match(tooShort, /at least 1/);
    await banHistory.fill('0');
    await audit.fill('400');
    await form.getByRole('button', { name: 'Save retention' }).click();
    const banHistoryError = await visible(banHistoryField.locator('.mantine-InputWrapper-error'));
    assert.equal((await banHistoryError.innerText()).toLowerCase(), tooShort.toLowerCase());
    assert.equal(await auditField.locator('.mantine-InputWrapper-error').count(), 0);
    assert.equal(await banHistory.inputValue(), '0');
    assert.deepEqual(await stored(), saved);
    await browser.screenshot('settings-retention-refused');

    // After a reload the form shows what is stored.
    await page.reload();
    const reloaded = await visible(page.getByRole('form', { name: 'Retention' }));
    await visible(reloaded.getByRole('textbox', { name: BAN_HISTORY, exact: true }));
    assert.equal(await reloaded.getByRole('textbox', { name: BAN_HISTORY, exact: true }).inputValue(), '30');
    assert.equal(await reloaded.getByRole('textbox', { name: AUDIT, exact: true }).inputValue(), '365');
  });
});
