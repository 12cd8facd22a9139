// Settings → Many sites (CrowdSec): the operator links this PBX to a real CrowdSec LAPI in the
// console, sees it connected with its last push, then sees the queue grow and the reason in words
// while the LAPI is down, and a refused login named as such.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { startCrowdsecLapi, type CrowdsecLapi } from './support/crowdsec-lapi.ts';
import { eventually, openScreen, visible } from './support/page-helpers.ts';

describe('console: the CrowdSec link in Settings', { timeout: 120_000 }, () => {
  let lapi: CrowdsecLapi;
  let server: TestServer;
  let browser: ConsoleBrowser;

  before(async () => {
    lapi = await startCrowdsecLapi();
    lapi.addMachine('console-site', 'console-site-password');
    lapi.addBouncer('console-site', 'console-site-bouncer-key-0123456789');
    server = await startConsoleServer({ adminPassword: 'e2e-admin-password' });
    browser = await launchConsoleBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await lapi?.close();
  });

  it(
    'links to the LAPI from the form, shows connected and the last push, then the queue and the ' +
      'reason while the LAPI is down',
    async () => {
      const { page } = browser;
      await page.goto(`${server.url}/`);
      await openScreen(page, 'Settings');
      const form = await visible(page.getByRole('form', { name: 'CrowdSec link' }));
      const status = page.getByTestId('crowdsec-link-status');
      assert.match(await status.innerText(), /\bOff\b/i);

      await form.getByRole('switch', { name: 'Share bans through a CrowdSec LAPI' }).check();
      await form.getByRole('textbox', { name: 'LAPI URL' }).fill('ftp://nowhere/');
      await form.getByRole('button', { name: 'Save CrowdSec link' }).click();
      await visible(form.getByText('must be an http:// or https:// URL'));

      await form.getByRole('textbox', { name: 'LAPI URL' }).fill(lapi.url);
      await form.getByRole('textbox', { name: "This site's name" }).fill('console-site');
      await form.getByRole('textbox', { name: 'Machine login' }).fill('console-site');
      await form.getByLabel('Machine password').fill('console-site-password');
      await form
        .getByRole('switch', { name: "Pull the LAPI's decisions (as a bouncer) and enforce them here" })
        .check();
      await form.getByLabel('Bouncer key').fill('console-site-bouncer-key-0123456789');
      await form.getByRole('button', { name: 'Save CrowdSec link' }).click();
      await visible(page.getByText('CrowdSec link saved'));
      await eventually(
        () => status.innerText(),
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
        () => status.innerText(),
        (text) => /Last push: (just now|\d+ s)/i.test(text) && !/Last push: never/.test(text),
        'last push shown',
      );
      await browser.screenshot('settings-crowdsec-link-connected');

      await lapi.stop();
      server.server.services.firewall.bans.ban('sip', '192.0.2.45', 'console test', 600);
      const down = await eventually(
        () => status.innerText(),
        (text) => /Not working/i.test(text) && /Waiting to be sent: 1 ban\b/.test(text),
        'down, queued',
        30_000,
      );
      assert.match(down, /unreachable/);
      await browser.screenshot('settings-crowdsec-link-down');

      await lapi.start();
      await eventually(
        () => status.innerText(),
        (text) => /Connected/i.test(text) && /Waiting to be sent: 0 bans/.test(text),
        'back, queue sent',
        30_000,
      );
      assert.equal(lapi.decisions().filter((d) => d.value === '192.0.2.45').length, 1);

      await form.getByLabel('Machine password').fill('a wrong password');
      await form.getByRole('button', { name: 'Save CrowdSec link' }).click();
      await eventually(
        () => status.innerText(),
        (text) => /Not working/i.test(text) && /refused the machine login "console-site"/.test(text),
        'refused login shown',
      );
    },
  );
});
