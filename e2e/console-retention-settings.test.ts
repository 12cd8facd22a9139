// Retention in Settings: how long the ban history and the audit log keep their rows
// (general-settings banHistoryRetentionDays and auditRetentionDays), typed in days, saved through the
// API, and an out-of-range value refused by the server under its own field, never clamped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Form } from './pages/form.ts';
import { useConsole } from './support/console-session.ts';
import { visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const BAN_HISTORY = 'Keep ban history for';
const AUDIT = 'Keep audit log for';

describe('console: retention settings', () => {
  const app = useConsole();
  const { settings } = app.screens;

  const stored = async () => (await app.server.call(`${V3}general-settings`)).json.data as Record<string, number>;

  /** The server's own 422 message for a value, without its field prefix (the field already names it). */
  async function serverRefusal(field: string, value: number): Promise<string> {
    const answer = await app.server.call(`${V3}general-settings`, { method: 'PATCH', body: { [field]: value } });
    assert.equal(answer.status, 422, answer.text);
    const message = (answer.json.messages.error as string[]).find((m) => m.startsWith(`${field}:`));
    assert.ok(message, `a message about ${field}: ${answer.text}`);
    return message.slice(field.length + 1).trim();
  }

  /** Types both retentions and saves: the server's `message` shows under `refused` only, which keeps what was typed. */
  async function saveRefused(form: Form, typed: Record<string, string>, refused: string, message: string) {
    for (const [label, value] of Object.entries(typed)) await form.field(label, true).fill(value);
    await form.save('Save retention');
    const error = await visible(form.error(refused));
    assert.equal((await error.innerText()).toLowerCase(), message.toLowerCase());
    for (const other of Object.keys(typed).filter((label) => label !== refused))
      assert.equal(await form.error(other).count(), 0);
    assert.equal(await form.field(refused, true).inputValue(), typed[refused]);
  }

  it('shows both retentions with the server bounds, saves new values, and refuses an out-of-range one under its field', async () => {
    const { browser, page } = app;
    const before = await stored();
    assert.equal(before.banHistoryRetentionDays, 90);
    assert.equal(before.auditRetentionDays, 90);

    await app.open();
    await settings.show();
    const form = await settings.form('Retention');
    const banHistory = form.field(BAN_HISTORY, true);
    const audit = form.field(AUDIT, true);
    assert.equal(await banHistory.inputValue(), '90');
    assert.equal(await audit.inputValue(), '90');
    // What each one does and the server's bounds are the fields' descriptions.
    // The wrapper of a labelled field: its description and error sit inside it.
    const banHistoryField = form.wrapper(BAN_HISTORY, true);
    const auditField = form.wrapper(AUDIT, true);
    assert.match(await banHistoryField.innerText(), /bans in force never are/i);
    assert.match(await banHistoryField.innerText(), /From 1 to 3,650 days\./);
    assert.match(await auditField.innerText(), /deleted every hour/i);
    assert.match(await auditField.innerText(), /From 1 to 3,650 days\./);
    await browser.screenshot('settings-retention');

    // Both values change and are stored as typed.
    await banHistory.fill('30');
    await audit.fill('365');
    await form.save('Save retention');
    await settings.see('Retention saved');
    const saved = await stored();
    assert.equal(saved.banHistoryRetentionDays, 30);
    assert.equal(saved.auditRetentionDays, 365);
    // The queue limits, saved by their own form, are untouched.
    assert.equal(saved.APIQueueMaxLength, before.APIQueueMaxLength);
    assert.equal(saved.APIRequestTTL, before.APIRequestTTL);

    // Over the audit log's maximum: the server's message shows under that field only, the value stays as typed, nothing is saved.
    const tooLong = await serverRefusal('auditRetentionDays', 5000);
    assert.match(tooLong, /3650/);
    await saveRefused(form, { [BAN_HISTORY]: '45', [AUDIT]: '5000' }, AUDIT, tooLong);
    assert.equal(await audit.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await stored(), saved);

    // Under the ban history's minimum: the message moves under that field.
    const tooShort = await serverRefusal('banHistoryRetentionDays', 0);
    assert.match(tooShort, /at least 1/);
    await saveRefused(form, { [BAN_HISTORY]: '0', [AUDIT]: '400' }, BAN_HISTORY, tooShort);
    assert.deepEqual(await stored(), saved);
    await browser.screenshot('settings-retention-refused');

    // After a reload the form shows what is stored.
    await page.reload();
    const reloaded = await settings.form('Retention');
    await visible(reloaded.field(BAN_HISTORY, true));
    assert.equal(await reloaded.field(BAN_HISTORY, true).inputValue(), '30');
    assert.equal(await reloaded.field(AUDIT, true).inputValue(), '365');
  });
});
