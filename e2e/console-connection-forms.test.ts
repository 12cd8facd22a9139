// Connection state and forms (issue 22, items 7 and 8): one banner with the last contact when the
// server stops answering, on a page that does not poll too, and the header badge follows; one guard
// before leaving unsaved edits; a duration error in the units of its hint; one date format.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
/** "2026-11-25 10:03:24 UTC": date, 24-hour time, zone. */
const ONE_DATE_FORMAT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [A-Z]{2,5}([+-]\d{1,2}(:\d{2})?)?$/;

describe('console: connection state and forms', () => {
  const app = useConsole({ openAt: '/settings' });
  const { shell, settings, apiKeys } = app.screens;

  it(
    'says once, app-wide, that the server is unreachable and since when, even on a page that ' +
      'does not poll; recovers by itself',
    async () => {
      const { server, browser } = app;
      await settings.form('Ban rules');
      await visible(shell.localBadge);
      assert.equal(await shell.connectionBanner.count(), 0);

      await server.server.stop();
      await shell.connectionBanner.waitFor({ state: 'visible', timeout: 20_000 });
      const banner = shell.connectionBanner;
      const text = await banner.innerText();
      assert.match(text, /The server cannot be reached/);
      assert.match(text, /Last contact at \d{2}:\d{2}:\d{2} [A-Z]/);
      assert.match(text, /may be out of date/);
      await visible(shell.offlineBadge);
      assert.equal(await shell.localBadge.count(), 0, 'the Local badge does not stay green');
      assert.equal(await shell.toasts('cannot be reached').count(), 0, 'no toast besides the banner');
      await browser.screenshot('connection-lost');

      await server.restart();
      await shell.connectionBanner.waitFor({ state: 'detached', timeout: 20_000 });
      await visible(shell.localBadge);
    },
  );

  it('asks before leaving unsaved edits, and a refused duration reads in the units of its hint', async () => {
    const { server, page } = app;
    await app.open('/settings');
    const rules = await settings.form('Ban rules');
    // Over the longest ban (365 days): refused by the server, in days like the hint.
    await rules.duration('Ban duration', '400', 'd');

    // Leaving: the guard asks; "stay" keeps the page and the typed value.
    const dismissed = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => void dialog.dismiss().then(() => resolve(dialog.message()))),
    );
    await shell.navigate('Dashboard');
    assert.match(await dismissed, /not saved/);
    assert.equal(new URL(page.url()).pathname, '/settings');
    assert.equal(await rules.field('Ban duration').inputValue(), '400');

    await rules.save('Save ban rules');
    const error = await (await visible(rules.error('Ban duration'))).innerText();
    const hint = await rules.hint('Ban duration').innerText();
    assert.match(hint, /365 d/);
    assert.match(error, /365 d/, error);
    assert.doesNotMatch(error, /31536000/);
    assert.equal((await server.call(`${V3}fail2ban`)).json.data.bantime, 600, 'nothing stored');

    // Leaving and accepting goes on; nothing was saved.
    const accepted = new Promise<void>((resolve) =>
      page.once('dialog', (dialog) => void dialog.accept().then(() => resolve())),
    );
    await shell.open('Dashboard');
    await accepted;
    // Nothing unsaved any more: the next navigation does not ask.
    await shell.open('Settings');
    await shell.open('API keys');
  });

  it('shows dates in one format: 24-hour, local, with the zone', async () => {
    const { server } = app;
    assert.equal(
      (
        await server.call(`${V3}api-keys`, {
          method: 'POST',
          body: { description: 'dated key', networkfilterid: 'localhost' },
        })
      ).status,
      201,
    );
    await app.open('/api-keys');
    const row = await visible(apiKeys.row('dated key'));
    await apiKeys.openDetails(row);
    const dialog = await visible(apiKeys.dialog());
    const created = (await apiKeys.textIn(dialog, ONE_DATE_FORMAT).first().innerText()).trim();
    assert.match(created, ONE_DATE_FORMAT);
    assert.doesNotMatch(await dialog.innerText(), /\b(AM|PM)\b|\d{4}-\d{2}-\d{2}T/);
  });
});
