// Settings → Many sites (CrowdSec): the operator links this PBX to a real CrowdSec LAPI in the
// console, sees it connected with its last push, then sees the queue grow and the reason in words
// while the LAPI is down, and a refused login named as such.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { startCrowdsecLapi, type CrowdsecLapi } from './support/crowdsec-lapi.ts';
import { eventually } from './support/page-helpers.ts';

describe('console: the CrowdSec link in Settings', { timeout: 120_000 }, () => {
  let lapi: CrowdsecLapi;

  // The LAPI starts before the console server and stops after it.
  before(async () => {
    lapi = await startCrowdsecLapi();
    lapi.addMachine('console-site', 'console-site-password');
    lapi.addBouncer('console-site', 'console-site-bouncer-key-0123456789');
  });
  const app = useConsole({ openAt: '/settings' });
  after(async () => await lapi?.close());
  const { settings } = app.screens;

  it(
    'links to the LAPI from the form, shows connected and the last push, then the queue and the ' +
      'reason while the LAPI is down',
    async () => {
      const { server, browser } = app;
      const form = await settings.form('CrowdSec link');
      assert.match(await settings.crowdsecStatus(), /\bOff\b/i);

      await form.switchOn('Share bans through a CrowdSec LAPI');
      await form.field('LAPI URL').fill('ftp://nowhere/');
      await form.save('Save CrowdSec link');
      await form.see('must be an http:// or https:// URL');

      await form.field('LAPI URL').fill(lapi.url);
      await form.field("This site's name").fill('console-site');
      await form.field('Machine login').fill('console-site');
      await form.fill({ 'Machine password': 'console-site-password' });
      await form.switchOn("Pull the LAPI's decisions (as a bouncer) and enforce them here");
      await form.fill({ 'Bouncer key': 'console-site-bouncer-key-0123456789' });
      await form.save('Save CrowdSec link');
      await settings.see('CrowdSec link saved');
      await eventually(
        () => settings.crowdsecStatus(),
        (text) => /Connected/i.test(text),
        'connected',
      );

      server.server.services.firewall.bans.ban('sip', '192.0.2.44', 'console test', 600);
      await eventually(
        () => Promise.resolve(lapi.decisions().some((d) => d.value === '192.0.2.44')),
        Boolean,
        'the ban in the LAPI',
      );
      await eventually(
        () => settings.crowdsecStatus(),
        (text) => /Bans last sent to the LAPI: (just now|\d+ s)/i.test(text) && !/not yet/.test(text),
        'last push shown',
      );
      await browser.screenshot('settings-crowdsec-link-connected');

      await lapi.stop();
      server.server.services.firewall.bans.ban('sip', '192.0.2.45', 'console test', 600);
      const down = await eventually(
        () => settings.crowdsecStatus(),
        (text) => /Not working/i.test(text) && /\b1 ban waiting to be sent/.test(text),
        'down, queued',
        30_000,
      );
      assert.match(down, /unreachable/);
      await browser.screenshot('settings-crowdsec-link-down');

      await lapi.start();
      await eventually(
        () => settings.crowdsecStatus(),
        (text) => /Connected/i.test(text) && /\b0 bans waiting to be sent/.test(text),
        'back, queue sent',
        30_000,
      );
      assert.equal(lapi.decisions().filter((d) => d.value === '192.0.2.45').length, 1);

      await form.fill({ 'Machine password': 'a wrong password' });
      await form.save('Save CrowdSec link');
      await eventually(
        () => settings.crowdsecStatus(),
        (text) => /Not working/i.test(text) && /refused the machine login "console-site"/.test(text),
        'refused login shown',
      );
    },
  );
});
