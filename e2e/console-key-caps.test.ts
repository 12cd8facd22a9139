// Issue 4/6 in the console: a key's device limit chosen from presets (each with its number and
// where it comes from), merging into networks, the cap's status on the Bouncers card and the
// Dashboard's warning when a capped key leaves out this PBX's own bans; at 1440 and 390 px (the
// phone by touch), with no serious or critical axe violation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seriousViolations } from './support/axe.ts';
import type { Page } from 'playwright-core';
import { poll } from '../src-server/test-support/bouncer.ts';
import { LOCALHOST_SOURCE } from './pages/api-keys.ts';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const HEX = 'MikroTik hEX class: 35,000 entries';

async function fits(page: Page, width: number, what: string): Promise<void> {
  const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  assert.ok(scrollWidth <= width, `${what} at ${width} px is ${scrollWidth} px wide`);
  assert.deepEqual(await seriousViolations(page), [], `${what} at ${width} px`);
}

describe('console: device limits of bouncer and feed keys', () => {
  const app = useConsole({ hasTouch: true, openAt: '/api-keys' });
  const { apiKeys, dashboard } = app.screens;

  it('at 1440 px: a router-feed key with the MikroTik hEX preset and merging; its number and source are shown', async () => {
    const { page, server } = app;
    await page.setViewportSize({ width: 1440, height: 900 });
    const dialog = await apiKeys.fillNew({ description: 'hEX S', purpose: 'routerFeed', source: LOCALHOST_SOURCE });
    await apiKeys.choose('Device limit', HEX);
    await apiKeys.see('A MikroTik hEX S struggles above 35,000 address-list entries (field report).');
    await page.getByRole('checkbox', { name: /Merge neighbouring addresses into networks/ }).check();
    await fits(page, 1440, 'the key dialog with a device limit');
    await app.browser.screenshot('key-caps-dialog-1440');
    const issued = await dialog.create();
    await issued.value();
    const keys = (await server.call(`${V3}api-keys`)).json.data as Array<Record<string, unknown>>;
    const made = keys.find((k) => k.description === 'hEX S')!;
    assert.equal(made.entry_cap, 35_000);
    assert.equal(made.cap_preset, 'mikrotik-hex');
    assert.equal(made.aggregate, true);
    await issued.close();

    // Edit: another preset; the dialog shows the key's current one first.
    await apiKeys.action('hEX S', 'Edit…');
    const edit = await visible(apiKeys.dialog('Edit “hEX S”'));
    assert.equal(await edit.getByRole('combobox', { name: 'Device limit' }).inputValue(), HEX);
    await apiKeys.choose('Device limit', 'ipset default set: 65,536 entries', edit);
    await apiKeys.see("ipset's default maxelem: a set created without maxelem holds 65,536 entries.");
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await apiKeys.dialogsClosed();
    const edited = ((await server.call(`${V3}api-keys`)).json.data as Array<Record<string, unknown>>).find(
      (k) => k.description === 'hEX S',
    )!;
    assert.equal(edited.entry_cap, 65_536);
    assert.equal(edited.cap_preset, 'ipset-default');
    assert.equal(edited.aggregate, true, 'merging kept');
  });

  it('a custom limit out of bounds shows the 422 under the field; a capped key leaving out own bans warns on the Dashboard', async () => {
    const { page, server } = app;
    await app.open('/api-keys');
    await apiKeys.fillNew({ description: 'tiny', purpose: 'firewallBouncer', source: LOCALHOST_SOURCE });
    await apiKeys.choose('Device limit', 'Custom number');
    await page.getByLabel('Entries at most').fill('0');
    await page.getByRole('button', { name: 'Create key' }).click();
    await apiKeys.see(/Must be a whole number from 1 to 2,000,000/);
    await page.getByLabel('Entries at most').fill('1');
    await page.getByRole('button', { name: 'Create key' }).click();
    const issued = await apiKeys.issued();
    const key = await issued.value();
    await issued.close();

    for (const ip of ['198.51.100.31', '198.51.100.32'])
      assert.equal(
        (await server.call(`${V3}firewall:banIp`, { method: 'POST', body: { ip, duration: 3600 } })).status,
        201,
      );
    await eventually(
      async () => (await poll(server, key)).new.length,
      (n) => n === 1,
      'the capped key receives one entry',
    );
    server.server.services.firewall.cursors.flush();
    await app.open('/');
    const banner = await visible(page.getByTestId('capped-own-banner'));
    assert.match(await banner.innerText(), /tiny is too small for this PBX's own bans/);
    assert.match(await banner.innerText(), /capped at 1: 1 left out, all manual bans/);
    assert.match(
      await dashboard.bouncer('tiny').getByTestId('bouncer-cap').innerText(),
      /Device limit: capped at 1: 1 left out, all manual bans/,
    );
    await fits(page, 1440, 'the Dashboard with the capped-key warning');
    await app.browser.screenshot('key-caps-dashboard-1440');
  });

  it('at 390 px by touch: the preset is chosen with taps, the dialog fits, and the Dashboard warning fits', async () => {
    const { page, server } = app;
    await page.setViewportSize({ width: 390, height: 844 });
    await app.open('/api-keys');
    await apiKeys.fillNew({ description: 'UniFi', purpose: 'routerFeed', source: LOCALHOST_SOURCE });
    await page.getByRole('combobox', { name: 'Device limit' }).tap();
    await page.getByRole('option', { name: 'UniFi, smaller gateways: 8,000 entries', exact: true }).tap();
    await apiKeys.see(/UniFi's safe cap for its smaller gateways \(8,000\)/);
    await fits(page, 390, 'the key dialog with a device limit');
    await app.browser.screenshot('key-caps-dialog-390');
    await page.getByRole('button', { name: 'Create key' }).tap();
    const issued = await apiKeys.issued();
    await issued.value();
    const made = ((await server.call(`${V3}api-keys`)).json.data as Array<Record<string, unknown>>).find(
      (k) => k.description === 'UniFi',
    )!;
    assert.equal(made.entry_cap, 8_000);
    await app.open('/');
    await visible(page.getByTestId('capped-own-banner'));
    await fits(page, 390, 'the Dashboard with the capped-key warning');
    await app.browser.screenshot('key-caps-dashboard-390');
  });
});
