// Linking shares what is in force (issue 6/6 item 1): with bans in force before the link exists, the
// operator links this PBX to a real CrowdSec LAPI; nothing of them goes up by itself, the console
// says how many the link would share and offers to push them now; a tap sends them through the
// durable queue, the progress reads "all been sent" and the LAPI holds each once. 1440 and 390 px,
// axe clean, by touch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { startCrowdsecLapi, type CrowdsecLapi } from './support/crowdsec-lapi.ts';
import { eventually, visible } from './support/page-helpers.ts';
import { checkScreen } from './support/screen-check.ts';

const IN_FORCE = ['198.51.100.31', '198.51.100.32', '198.51.100.33'];

describe('console: linking shares the bans in force', { timeout: 180_000 }, () => {
  let lapi: CrowdsecLapi;
  before(async () => {
    lapi = await startCrowdsecLapi();
    lapi.addMachine('share-site', 'share-site-password');
  });
  const app = useConsole({ openAt: '/settings', hasTouch: true });
  after(async () => await lapi?.close());
  const { settings } = app.screens;

  it('after the save, the console counts the bans in force and shares them on a tap', async () => {
    const { server, page } = app;
    for (const ip of IN_FORCE) server.server.services.firewall.bans.ban('sip', ip, 'before the link', 3600);

    const form = await settings.form('CrowdSec link');
    await form.switchOn('Share bans through a CrowdSec LAPI');
    await form.field('LAPI URL').fill(lapi.url);
    await form.field("This site's name").fill('share-site');
    await form.field('Machine login').fill('share-site');
    await form.fill({ 'Machine password': 'share-site-password' });
    await form.save('Save CrowdSec link');
    await settings.see('CrowdSec link saved');
    await eventually(
      () => settings.crowdsecStatus(),
      (text) => /Connected/i.test(text),
      'connected',
      30_000,
    );
    assert.deepEqual(
      lapi.decisions().filter((d) => IN_FORCE.includes(d.value)),
      [],
      'linking alone shares none of the bans in force',
    );

    const offer = await visible(page.getByTestId('crowdsec-share-offer'));
    assert.match(
      await offer.innerText(),
      /The 3 bans already in force stay on this PBX only unless you share them now/,
    );
    const button = page.getByRole('button', { name: 'Share 3 bans now' });
    await checkScreen(page, app.browser, 'crowdsec-share-offer', () => visible(button));

    await button.tap();
    await eventually(
      () => Promise.resolve(IN_FORCE.every((ip) => lapi.decisions().some((d) => d.value === ip))),
      Boolean,
      'the bans in force in the LAPI',
      30_000,
    );
    const progress = await eventually(
      () =>
        page
          .getByTestId('crowdsec-share-progress')
          .innerText()
          .catch(() => ''),
      (text) => /The 3 bans in force shared on .* have all been sent/.test(text),
      'the progress: all sent',
      30_000,
    );
    assert.ok(progress);
    assert.equal(await page.getByTestId('crowdsec-share-offer').count(), 0, 'nothing left to offer');
    for (const ip of IN_FORCE)
      assert.equal(lapi.decisions().filter((d) => d.value === ip).length, 1, `${ip} shared once`);
    assert.doesNotMatch(await settings.crowdsecStatus(), /Not applied|echo \d|Last push: never/);
    await checkScreen(page, app.browser, 'crowdsec-share-progress', () =>
      visible(page.getByTestId('crowdsec-share-progress')),
    );
  });
});
