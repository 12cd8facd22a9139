// Flows 3 and 4 of the console: the whitelist editor and the effective list bouncers get; peers
// with live states from the AMI test server (AMI configured through the Settings screen).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AmiTestServer } from '../src-server/test-support/ami-server.ts';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { eventually, openScreen, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: whitelist and peers', () => {
  let server: TestServer;
  let browser: ConsoleBrowser;
  let ami: AmiTestServer;
  let providerId = '';

  before(async () => {
    ami = await AmiTestServer.start({ username: 'console', secret: 'ami-e2e-secret' });
    ami.endpoints.set('100', {
      deviceState: 'Not in use',
      contact: {
        uri: 'sip:100@192.0.2.5:5060',
        userAgent: 'Yealink T46U',
        viaAddress: '192.0.2.5:5060',
        status: 'Reachable',
        roundtripUsec: '1234',
      },
    });
    ami.endpoints.set('101', { deviceState: 'Unavailable' });
    server = await startConsoleServer({ adminPassword: 'e2e-admin-password', httpsPort: 0 });
    for (const number of ['100', '101']) {
      const created = await server.call(`${V3}extensions`, {
        method: 'POST',
        body: { number, username: `User ${number}`, secret: 'long-enough-secret' },
      });
      assert.equal(created.status, 201, created.text);
    }
    const provider = await server.call(`${V3}providers`, {
      method: 'POST',
      body: { description: 'Main trunk', host: 'sip.example.net', username: 'acme' },
    });
    assert.equal(provider.status, 201, provider.text);
    providerId = provider.json.data.id;
    ami.registrations.set(providerId, { status: 'Registered' });
    browser = await launchConsoleBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await ami?.close();
  });

  it('creates a trusted network filter with per-category rules, with inline errors, and edits it', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await openScreen(page, 'Network filters');
    await visible(page.getByText('No network filters'));
    await page.getByRole('button', { name: 'New filter' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'New network filter' }));
    await dialog.getByRole('button', { name: 'Create filter' }).click();
    await visible(dialog.getByText('Enter an address or a network'));
    await dialog.getByRole('textbox', { name: 'Network' }).fill('fe80::1%eth0');
    await dialog.getByRole('button', { name: 'Create filter' }).click();
    // The server's 422 lands under the field it names.
    const error = await visible(dialog.locator('.mantine-InputWrapper-error'));
    assert.match(await error.innerText(), /fe80::1%eth0/);
    await dialog.getByRole('textbox', { name: 'Network' }).fill('10.20.0.0/16');
    await dialog.getByLabel('Description').fill('Office');
    await dialog.getByLabel('Allow AMI').uncheck();
    await dialog.getByLabel('Allow IAX').uncheck();
    await dialog.getByRole('switch', { name: /^Trusted/ }).check({ force: true });
    await browser.screenshot('network-filters-form');
    await dialog.getByRole('button', { name: 'Create filter' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    const row = await visible(page.getByTestId('filter-row').filter({ hasText: '10.20.0.0/16' }));
    assert.match(await row.innerText(), /trusted/i);
    assert.equal(await row.getByLabel('AMI from 10.20.0.0/16: blocked').count(), 1);
    assert.equal(await row.getByLabel('SIP from 10.20.0.0/16: allowed').count(), 1);
    const stored = ((await server.call(`${V3}firewall`)).json.data as Array<Record<string, unknown>>).find(
      (f) => f.permit === '10.20.0.0/16',
    )!;
    assert.deepEqual(stored.rules, { SIP: 'allow', WEB: 'allow', AMI: 'block', IAX: 'block' });

    await row.getByRole('button', { name: 'Actions for 10.20.0.0/16' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = await visible(page.getByRole('dialog', { name: 'Edit filter 10.20.0.0/16' }));
    assert.equal(await edit.getByLabel('Allow AMI').isChecked(), false);
    await edit.getByRole('switch', { name: /^Local network/ }).check({ force: true });
    await edit.getByRole('button', { name: 'Save filter' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await eventually(
      () => row.innerText(),
      (t) => /local/i.test(t),
      'the local flag in the list',
    );

    // A deny entry that overlaps the trusted network is refused; the message names `deny` and shows
    // under Deny, not under Network (it mentions "the trusted network").
    await page.getByRole('button', { name: 'New filter' }).click();
    const overlap = await visible(page.getByRole('dialog', { name: 'New network filter' }));
    await overlap.getByRole('textbox', { name: 'Network' }).fill('192.0.2.50');
    await overlap.getByRole('textbox', { name: 'Deny' }).fill('10.20.5.0/24');
    await overlap.getByRole('button', { name: 'Create filter' }).click();
    const fieldError = (name: string) =>
      overlap
        .locator('.mantine-InputWrapper-root', { has: page.getByRole('textbox', { name, exact: true }) })
        .locator('.mantine-InputWrapper-error');
    assert.match(
      await (await visible(fieldError('Deny'))).innerText(),
      /overlaps the trusted network 10\.20\.0\.0\/16/,
    );
    assert.equal(await fieldError('Network').count(), 0);
    await overlap.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('edits the fail2ban whitelist and shows it in the effective list, with trusted filters', async () => {
    const { page } = browser;
    await openScreen(page, 'Whitelist');
    const effective = page.getByTestId('effective-whitelist');
    await eventually(
      () => effective.innerText(),
      (t) => t.includes('10.20.0.0/16'),
      'the trusted filter in the effective list',
    );

    const input = page.getByRole('combobox', { name: 'Whitelisted addresses' });
    await input.fill('not-an-address');
    await input.press('Enter');
    await page.getByRole('button', { name: 'Save whitelist' }).click();
    // The server's 422 appears under the field.
    const error = await visible(page.locator('.mantine-InputWrapper-error'));
    assert.match(await error.innerText(), /not-an-address/);
    await page.getByRole('button', { name: 'Discard changes' }).click();

    await input.fill('198.51.100.7');
    await input.press('Enter');
    await input.fill('192.0.2.0/24');
    await input.press('Enter');
    await page.getByRole('button', { name: 'Save whitelist' }).click();
    await eventually(
      () => effective.innerText(),
      (t) => t.includes('198.51.100.7') && t.includes('192.0.2.0/24') && t.includes('10.20.0.0/16'),
      'the new entries in the effective list',
    );

    // The effective list is exactly what bouncers get from /v1/whitelist.
    const fromApi = (await server.call(`${V3}firewall:getWhitelist`)).json.data as unknown[];
    const shown = (await effective.locator('[data-entry]').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(shown, fromApi.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).map(String));
    assert.match((await server.call(`${V3}fail2ban`)).json.data.whitelist, /198\.51\.100\.7.*192\.0\.2\.0\/24/);
    await browser.screenshot('whitelist');
  });

  it('connects AMI from Settings; the dashboard and the peers page show live states from the AMI test server', async () => {
    const { page } = browser;
    await openScreen(page, 'Peers');
    const row = (id: string) => page.getByTestId('extension-row').filter({ hasText: id });
    // Before AMI is configured nothing is invented: every extension is UNKNOWN.
    await eventually(
      () => row('100').getByTestId('peer-state').innerText(),
      (s) => s === 'UNKNOWN',
      'extension 100 UNKNOWN without AMI',
    );
    await visible(page.getByText('Asterisk manager not configured'));

    await openScreen(page, 'Settings');
    const form = page.getByRole('form', { name: 'AMI connection' });
    await form.getByLabel('Connect to the Asterisk manager').check({ force: true });
    await form.getByLabel('Host').fill(ami.host);
    await form.getByLabel('Port').fill(String(ami.port));
    await form.getByLabel('User').fill('console');
    await form.getByLabel('Secret').fill('ami-e2e-secret');
    await form.getByRole('button', { name: 'Save AMI connection' }).click();
    await visible(page.getByText('AMI settings saved'));

    // Ban rules and queue limits save through their own forms. Times are typed in a unit.
    const rules = page.getByRole('form', { name: 'Ban rules' });
    await rules.getByRole('textbox', { name: 'Failures before a ban' }).fill('5');
    await rules.getByRole('textbox', { name: 'Ban duration' }).fill('2');
    await rules.getByRole('combobox', { name: 'Unit of ban duration' }).selectOption('h');
    await rules.getByRole('button', { name: 'Save ban rules' }).click();
    await visible(page.getByText('Ban rules saved'));
    const saved = (await server.call(`${V3}fail2ban`)).json.data;
    assert.equal(saved.maxretry, 5);
    assert.equal(saved.bantime, 7200);
    // Out of bounds: nothing is clamped; the value stays as typed and the server's answer shows under the field.
    await rules.getByRole('textbox', { name: 'Counting window' }).fill('30');
    await rules.getByRole('combobox', { name: 'Unit of counting window' }).selectOption('s');
    await rules.getByRole('button', { name: 'Save ban rules' }).click();
    const windowField = rules.locator('.mantine-InputWrapper-root', {
      has: page.getByRole('textbox', { name: 'Counting window' }),
    });
    // The server's bound, in the units of the field's hint ("From 1 min to …").
    assert.match(await (await visible(windowField.locator('.mantine-InputWrapper-error'))).innerText(), /1 min/);
    assert.equal(await rules.getByRole('textbox', { name: 'Counting window' }).inputValue(), '30');
    assert.equal((await server.call(`${V3}fail2ban`)).json.data.findtime, saved.findtime);
    const queue = page.getByRole('form', { name: 'Queue limits' });
    await queue.getByRole('textbox', { name: 'Queue length' }).fill('80');
    await queue.getByRole('button', { name: 'Save queue limits' }).click();
    await visible(page.getByText('Queue limits saved'));
    assert.equal((await server.call(`${V3}general-settings`)).json.data.APIQueueMaxLength, 80);
    // The HTTPS listener of this server runs with a self-signed certificate: its fingerprint is shown.
    const certificate = (await server.call(`${V3}system:getCertificate`)).json.data;
    assert.match(certificate.fingerprint256, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/i);
    await eventually(
      () => page.getByTestId('https-runtime').innerText(),
      (t) => t.includes(certificate.fingerprint256),
      'the certificate fingerprint',
    );
    await browser.screenshot('settings');

    // The refused window is still typed in Ban rules: leaving asks first (the one unsaved-edits guard).
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => void dialog.accept().then(() => resolve(dialog.message()))),
    );
    await openScreen(page, 'Dashboard');
    assert.match(await asked, /not saved/);
    await eventually(
      () => page.getByTestId('ami-state').innerText(),
      (s) => /connected/i.test(s) && !/dis/i.test(s),
      'AMI connected on the dashboard',
    );

    await openScreen(page, 'Peers');
    await eventually(
      () => row('100').getByTestId('peer-state').innerText(),
      (s) => s === 'OK',
      'extension 100 OK',
    );
    assert.equal(await page.getByText(/Asterisk manager (not configured|disconnected)/).count(), 0);
    assert.equal(await row('101').getByTestId('peer-state').innerText(), 'UNKNOWN');
    await page.getByRole('tab', { name: /Providers/ }).click();
    const provider = page.getByTestId('provider-row').filter({ hasText: 'Main trunk' });
    await eventually(
      () => provider.getByTestId('peer-state').innerText(),
      (s) => s === 'OK',
      'the provider registered',
    );
    await browser.screenshot('peers-providers');

    // Live: 101 registers in Asterisk and the page follows without a reload.
    await page.getByRole('tab', { name: /Extensions/ }).click();
    ami.endpoints.set('101', {
      deviceState: 'Not in use',
      contact: { uri: 'sip:101@192.0.2.6:5060', status: 'Reachable' },
    });
    ami.emitEvent({ Event: 'DeviceStateChange', Device: 'PJSIP/101', State: 'NOT_INUSE' });
    await eventually(
      () => row('101').getByTestId('peer-state').innerText(),
      (s) => s === 'OK',
      'extension 101 OK after it registers',
      20_000,
    );
    await browser.screenshot('peers');

    await row('100').getByRole('link', { name: '100', exact: true }).click();
    await visible(page.getByRole('heading', { name: 'Extension 100' }));
    await eventually(
      () => page.locator('dl').innerText(),
      (t) => t.includes('Yealink T46U') && t.includes('192.0.2.5:5060'),
      'the contact detail of 100',
    );
    await browser.screenshot('peer-detail');

    // Dark mode follows the system.
    await page.emulateMedia({ colorScheme: 'dark' });
    await openScreen(page, 'Dashboard');
    await eventually(
      () => page.locator('html').getAttribute('data-mantine-color-scheme'),
      (v) => v === 'dark',
      'the dark scheme',
    );
    await browser.screenshot('dashboard-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
