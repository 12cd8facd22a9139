// Router feed keys are first-class (issue 6/6 item 2): their own Access badge, their feed URL and
// configuration in Details, and the URL built from the key's binding: a "This computer only" key is
// offered loopback only, a key bound to the LAN's filter the server's LAN address. The server listens
// on every address so it has a LAN address to offer. 1440 and 390 px, axe clean, by touch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCALHOST_SOURCE } from './pages/api-keys.ts';
import { useConsole } from './support/console-session.ts';
import { visible } from './support/page-helpers.ts';
import { checkScreen } from './support/screen-check.ts';

const V3 = '/pbxcore/api/v3/';
const ADDRESS = 'Address the router reaches this server on';

describe('console: router feed keys', () => {
  const app = useConsole({ server: { host: '0.0.0.0' }, openAt: '/api-keys', hasTouch: true });
  const { apiKeys } = app.screens;

  /** The addresses offered for the feed URL in the panel shown. */
  const offered = async (): Promise<string[]> => {
    const panel = app.page.getByTestId('router-feed').last();
    await panel.getByRole('combobox', { name: ADDRESS }).click();
    const options = await app.page.getByRole('option').allInnerTexts();
    await app.page.keyboard.press('Escape');
    return options;
  };

  it('a "This computer only" key is offered loopback only; its Access badge reads Router feed', async () => {
    const port = new URL(app.server.url).port;
    await apiKeys.createKey({ description: 'gw-local', purpose: 'routerFeed', source: LOCALHOST_SOURCE });
    await apiKeys.panel('router-feed');
    assert.deepEqual(await offered(), [`http://127.0.0.1:${port}/pbxcore/api/v3/firewall-bouncer/`]);
    await apiKeys.press('I have copied it');
    const row = await visible(apiKeys.row('gw-local'));
    const text = await row.innerText();
    assert.match(text, /Router feed/i);
    assert.doesNotMatch(text, /Firewall bouncer/i);
  });

  it('Details shows the feed URL and its configuration again, the key as a placeholder', async () => {
    const port = new URL(app.server.url).port;
    await apiKeys.openDetails(apiKeys.row('gw-local'));
    const details = await visible(app.page.getByTestId('api-key-details'));
    assert.match(await details.innerText(), /Router feed set-up/);
    assert.match(
      await details.innerText(),
      new RegExp(
        `http://feed:YOUR-KEY@127\\.0\\.0\\.1:${port}/pbxcore/api/v3/firewall-bouncer/blocklist\\?format=plain_text`,
      ),
    );
    assert.match(await details.innerText(), /OPNsense: URL Table alias/);
    await checkScreen(app.page, app.browser, 'router-feed-details', () => visible(details.getByTestId('router-feed')));
    await app.page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().tap();
  });

  it('a key bound to the LAN filter is offered the LAN address, not loopback', async () => {
    const info = await app.server.call(`${V3}system:getInfo`);
    const urls = info.json.data.bouncerApiUrls as string[];
    const lan = urls
      .map((u) => new URL(u).hostname)
      .find((host) => /^\d+\.\d+\.\d+\.\d+$/.test(host) && !host.startsWith('127.'));
    assert.ok(lan, `the test machine needs an IPv4 address other than loopback: ${urls.join(', ')}`);
    const network = `${lan.split('.').slice(0, 3).join('.')}.0/24`;
    const made = await app.server.call(`${V3}firewall`, {
      method: 'POST',
      body: { permit: network, description: 'Router LAN' },
    });
    assert.ok(made.status < 300, made.text);
    await app.page.reload();
    await apiKeys.createKey({ description: 'gw-lan', purpose: 'routerFeed', source: `${network} — Router LAN` });
    await apiKeys.panel('router-feed');
    const port = new URL(app.server.url).port;
    assert.deepEqual(await offered(), [`http://${lan}:${port}/pbxcore/api/v3/firewall-bouncer/`]);
    await checkScreen(app.page, app.browser, 'router-feed-lan', () => visible(app.page.getByTestId('router-feed')));
    await apiKeys.press('I have copied it');
  });
});
