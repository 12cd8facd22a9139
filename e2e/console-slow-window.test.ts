// The slow window beside the normal one on the Ban rules form (Settings): a preset turns it on with
// its numbers, a slow window not longer than the normal one is refused under its field, and the
// switch turns it off. axe (no serious or critical violation) and no sideways scroll at 1440 and 390 px.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seriousViolations } from './support/axe.ts';
import { useConsole } from './support/console-session.ts';
import { eventually } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const WIDTHS = [1440, 390] as const;

describe('console: the slow window', () => {
  const app = useConsole({ server: { adminPassword: 'slow-window-e2e-password' } });
  const { settings } = app.screens;
  const fail2ban = async () => (await app.server.call(`${V3}fail2ban`)).json.data as Record<string, unknown>;

  it('a preset turns it on beside the normal window; a too-short window is refused under its field; off saves off', async () => {
    const { page } = app;
    await app.open();
    await settings.show();
    const form = await settings.form('Ban rules');
    await form.preset('Normal');
    assert.equal(await form.field('Slow: failures before a ban').inputValue(), '20');
    assert.equal(await form.field('Slow: counting window').inputValue(), '1');

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await settings.form('Ban rules');
      const normal = await page.getByTestId('normal-window').boundingBox();
      const slow = await page.getByTestId('slow-window').boundingBox();
      assert.ok(normal && slow);
      if (width > 600) assert.equal(Math.round(slow.y), Math.round(normal.y), 'side by side on a desktop');
      else assert.ok(slow.y > normal.y, 'below it on a phone');
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { getAnimations(): Array<{ playState: string }> } }).document
            .getAnimations()
            .every((animation) => animation.playState !== 'running'),
        undefined,
        { timeout: 5000 },
      );
      assert.deepEqual(await seriousViolations(page), [], `Ban rules at ${width} px`);
      const wide = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      assert.ok(wide <= width, `Ban rules at ${width} px is ${wide} px wide`);
      await app.browser.screenshot(`slow-window-${width}`);
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });

    await form.save('Save ban rules');
    await settings.see('Ban rules saved');
    let stored = await fail2ban();
    assert.deepEqual(
      [stored.slowWindow, stored.slowMaxretry, stored.slowFindtime, stored.slowBantime, stored.preset],
      [true, 20, 86_400, 604_800, 'normal'],
    );

    // Each service may have its own slow numbers, in a second table under the normal one.
    await form.root.getByTestId('slow-category-rules').getByRole('textbox', { name: 'SIP: slow failures' }).fill('8');
    assert.equal(await form.radio('Custom').isChecked(), true, 'Custom as soon as a slow value differs');

    await form.duration('Slow: counting window', '1', 'h');
    await form.save('Save ban rules');
    await eventually(
      () => form.wrapper('Slow: counting window').innerText(),
      (text) => /must be longer than the sip findtime/i.test(text),
      'the refusal under the slow counting window',
    );
    assert.equal((await fail2ban()).slowFindtime, 86_400, 'nothing stored');

    await form.duration('Slow: counting window', '2', 'd');
    await form.save('Save ban rules');
    await eventually(fail2ban, (s) => s.slowFindtime === 172_800, 'the slow window saved');
    assert.equal((await fail2ban()).preset, 'custom');
    assert.deepEqual((await fail2ban()).categories, { sip: { slowMaxretry: 8 } });

    await form.toggle('Also ban slow guessing');
    assert.equal(await form.field('Slow: failures before a ban').count(), 0, 'its fields hide while off');
    assert.equal(await form.root.getByTestId('slow-category-rules').count(), 0, 'and its table');
    await form.save('Save ban rules');
    await eventually(fail2ban, (s) => s.slowWindow === false, 'the slow window off');
    stored = await fail2ban();
    assert.equal(stored.slowFindtime, 172_800, 'its numbers kept for next time');
  });
});
