// Touch at 390 px (issue 6/6 item 3): every select and picker of every dialog opens by a tap, keeps the dialog
// where it was, and takes a tapped option; a key can be made by touch alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import { useConsole } from './support/console-session.ts';
import { visible } from './support/page-helpers.ts';
import { onScreen, tapEveryPicker } from './support/touch.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: touch at 390 px', () => {
  const app = useConsole({ openAt: '/api-keys', touch: true });

  /** Taps a button of the page that opens a dialog, and returns the dialog. */
  const tapForDialog = async (button: string | RegExp, title: string | RegExp) => {
    await app.page.getByRole('button', { name: button }).first().tap();
    const dialog = await visible(app.page.getByRole('dialog', { name: title }));
    await app.screens.apiKeys.settled();
    return dialog;
  };

  const axeClean = async () => {
    const result = await axeAudit(app.page).analyze();
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      bad.map((v) => v.id),
      [],
    );
  };

  it('a key is made by touch: "Allowed source" opens its list by a tap and takes the tapped choice', async () => {
    const { page, server, browser } = app;
    const dialog = await tapForDialog(/New API key/, /New API key/);
    await dialog.getByLabel('Description').tap();
    await dialog.getByLabel('Description').fill('touch key');
    const source = dialog.getByRole('combobox', { name: 'Allowed source' });
    await source.scrollIntoViewIfNeeded();
    await source.tap();
    await visible(page.getByRole('option', { name: 'This computer only (localhost)' }));
    assert.ok(await onScreen(page, source), 'the dialog did not jump away from the select');
    await browser.screenshot('touch-390-allowed-source-open');
    await axeClean();
    await page.getByRole('option', { name: 'This computer only (localhost)' }).tap();
    assert.equal(await source.inputValue(), 'This computer only (localhost)');
    assert.ok((await tapEveryPicker(page, dialog)) >= 1);
    // The last choice of "Device limit" is "Custom number": it asks for the number, typed here.
    const cap = dialog.getByLabel('Entries at most');
    if (await cap.isVisible()) await cap.fill('35000');
    await dialog.getByRole('button', { name: 'Create key' }).tap();
    await visible(page.getByText('I have copied it'));
    const issued = page.getByRole('dialog');
    // The panel that shows the key: its address select, by touch too.
    assert.ok((await tapEveryPicker(page, issued)) >= 1);
    await page.getByRole('button', { name: 'I have copied it' }).tap();
    const keys = (await server.call(`${V3}api-keys`)).json.data as Array<{ description: string }>;
    assert.deepEqual(
      keys.map((k) => k.description),
      ['touch key'],
    );
  });

  it('the ban, import, export and whitelist dialogs take every picker by touch', async () => {
    const { page } = app;
    const dialogs: Array<[string, string | RegExp, string | RegExp]> = [
      ['/bans', 'Ban an address', 'Ban an address'],
      ['/bans', /^Import/, 'Import bans'],
      ['/bans', /^Export/, 'Export bans'],
      ['/whitelist', /^Add to whitelist/, /whitelist/i],
    ];
    for (const [path, button, title] of dialogs) {
      await app.open(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const dialog = await tapForDialog(button, title);
      const tapped = await tapEveryPicker(page, dialog);
      assert.ok(tapped >= 1, `${String(title)} has a picker to tap`);
      await axeClean();
      await page.keyboard.press('Escape');
      // A dialog whose pickers changed asks before it drops them (the ban dialog): Discard, by a tap too. The
      // question may take a moment to show, so wait for whichever comes: the question, or the dialog gone.
      const ask = page.getByRole('alertdialog', { name: 'Discard your changes?' });
      const gone = page.getByRole('dialog').first().waitFor({ state: 'detached' });
      // (The question's wait is left to run out unread when the dialog closes without asking.)
      const asked = ask.waitFor().then(
        () => true,
        () => false,
      );
      if (await Promise.race([gone.then(() => false), asked])) await ask.getByRole('button', { name: 'Discard' }).tap();
      await gone;
    }
  });

  it('on a phone the Bouncers card comes first on the Dashboard, and a ban shows until when and what it refuses', async () => {
    const { page, server, browser } = app;
    await app.open('/');
    const cards = page.locator('main section h2');
    await cards.first().waitFor();
    assert.equal(await cards.first().innerText(), 'Bouncers');
    const top = async (name: string) => (await cards.filter({ hasText: name }).boundingBox())!.y;
    assert.ok((await top('Bouncers')) < (await top('Server')), 'the Bouncers card is drawn first too');
    await axeClean();
    const banned = await server.call(`${V3}firewall:banIp`, {
      method: 'POST',
      body: { ip: '198.51.100.40', duration: 3600, services: ['SIP', 'AMI'] },
    });
    assert.ok(banned.status < 300, banned.text);
    await app.open('/bans');
    const row = page.getByTestId('ban-refused-on').first();
    assert.equal(await (await visible(row)).innerText(), 'SIP, AMI');
    assert.match(await page.getByTestId('ban-until').first().innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d /);
    await browser.screenshot('touch-390-bans');
    await axeClean();
  });
});
