// Flows 3 and 4 of the console: the whitelist editor and the effective list bouncers get; peers
// with live states from the AMI test server (AMI configured through the Settings screen).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AmiTestServer, deskPhone100 } from '../src-server/test-support/ami-server.ts';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: whitelist and peers', () => {
  let ami: AmiTestServer;
  let providerId = '';

  // The AMI test server starts before the console server and stops after it.
  before(async () => {
    ami = await AmiTestServer.start({ username: 'console', secret: 'ami-e2e-secret' });
    ami.endpoints.set('100', deskPhone100({ status: 'Reachable' }));
    ami.endpoints.set('101', { deviceState: 'Unavailable' });
  });
  const app = useConsole({
    server: { httpsPort: 0 },
    openAt: '/network-filters',
    prepare: async (server) => {
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
    },
  });
  after(async () => await ami?.close());
  const { filters, whitelist, settings, peers, dashboard } = app.screens;

  it('creates a trusted network filter with per-category rules, with inline errors, and edits it', async () => {
    const { server, browser } = app;
    await filters.see('No network filters');
    const dialog = await filters.openNew();
    await dialog.submit();
    await dialog.see('Enter an address or a network');
    await dialog.fill({ permit: 'fe80::1%eth0' });
    await dialog.submit();
    // The server's 422 lands under the field it names.
    const error = await visible(filters.errors(dialog.root));
    assert.match(await error.innerText(), /fe80::1%eth0/);
    await dialog.fill({ permit: '10.20.0.0/16', description: 'Office', block: ['AMI', 'IAX'], trusted: true });
    await browser.screenshot('network-filters-form');
    await dialog.save();

    const row = await visible(filters.row('10.20.0.0/16'));
    assert.match(await row.innerText(), /trusted/i);
    assert.equal(await filters.rule(row, 'AMI from 10.20.0.0/16: blocked').count(), 1);
    assert.equal(await filters.rule(row, 'SIP from 10.20.0.0/16: allowed').count(), 1);
    const stored = ((await server.call(`${V3}firewall`)).json.data as Array<Record<string, unknown>>).find(
      (f) => f.permit === '10.20.0.0/16',
    )!;
    assert.deepEqual(stored.rules, { SIP: 'allow', WEB: 'allow', AMI: 'block', IAX: 'block' });

    const edit = await filters.edit('10.20.0.0/16');
    assert.equal(await edit.allow('AMI').isChecked(), false);
    await edit.fill({ local: true });
    await edit.save();
    await eventually(
      () => row.innerText(),
      (t) => /local/i.test(t),
      'the local flag in the list',
    );

    // A deny entry that overlaps the trusted network is refused; the message names `deny` and shows
    // under Deny, not under Network (it mentions "the trusted network").
    const overlap = await filters.openNew();
    await overlap.fill({ permit: '192.0.2.50', deny: '10.20.5.0/24' });
    await overlap.submit();
    assert.match(
      await (await visible(overlap.error('Deny'))).innerText(),
      /overlaps the trusted network 10\.20\.0\.0\/16/,
    );
    assert.equal(await overlap.error('Network').count(), 0);
    await overlap.cancel();
  });

  it('one whitelist: entries with comment and end, the plain list among them, shown in the effective list', async () => {
    const { server, browser, page } = app;
    await whitelist.show();
    const effective = whitelist.effective;
    await eventually(
      () => effective.innerText(),
      (t) => t.includes('10.20.0.0/16'),
      'the trusted filter in the effective list',
    );

    // One whitelist: a bad address is refused under its field, and nothing is stored.
    let dialog = await whitelist.add('not-an-address');
    await dialog.getByRole('button', { name: 'Add to whitelist' }).click();
    assert.match(await (await visible(dialog.getByText(/not-an-address/))).innerText(), /not-an-address/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await whitelist.dialogsClosed();

    // For good from the quick ends, and for a week with a comment: both in the same list.
    dialog = await whitelist.add('198.51.100.7');
    await dialog.getByRole('button', { name: 'No end' }).click();
    await dialog.getByRole('button', { name: 'Add to whitelist' }).click();
    await whitelist.dialogsClosed();
    dialog = await whitelist.add('192.0.2.0/24', 'Branch office');
    await dialog.getByRole('button', { name: '1 week' }).click();
    assert.equal(await dialog.getByRole('button', { name: '1 week' }).getAttribute('aria-pressed'), 'true');
    await dialog.getByRole('button', { name: 'Add to whitelist' }).click();
    await whitelist.dialogsClosed();
    // A plain entry (the fail2ban list) is the same kind of row, without comment or end.
    const patched = await server.call(`${V3}fail2ban`, { method: 'PATCH', body: { whitelist: '203.0.113.50' } });
    assert.equal(patched.status, 200, patched.text);
    await page.reload();
    await visible(whitelist.entry('203.0.113.50'));
    assert.match(await whitelist.entry('203.0.113.50').innerText(), /Never/);
    assert.match(await whitelist.entry('192.0.2.0/24').innerText(), /Branch office/);
    assert.equal(await page.getByRole('heading', { name: 'Fail2ban whitelist' }).count(), 0, 'one whitelist');
    await eventually(
      () => effective.innerText(),
      (t) => t.includes('198.51.100.7') && t.includes('192.0.2.0/24') && t.includes('10.20.0.0/16'),
      'the new entries in the effective list',
    );

    // The effective list is exactly what bouncers get from /v1/whitelist.
    const fromApi = (await server.call(`${V3}firewall:getWhitelist`)).json.data as unknown[];
    const shown = await whitelist.effectiveEntries();
    assert.deepEqual(shown, fromApi.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).map(String));
    const stored = (await server.call(`${V3}fail2ban`)).json.data as {
      whitelistEntries: Array<{ value: string; comment: string; until: string | null }>;
    };
    assert.deepEqual(
      stored.whitelistEntries.map((e) => [e.value, e.comment, e.until === null]),
      [
        ['198.51.100.7', '', true],
        ['192.0.2.0/24', 'Branch office', false],
      ],
    );
    await browser.screenshot('whitelist');
  });

  it('connects AMI from Settings; the dashboard and the peers page show live states from the AMI test server', async () => {
    const { server, browser, page } = app;
    await peers.show();
    // Before AMI is configured nothing is invented: every extension is UNKNOWN.
    await eventually(
      () => peers.state(peers.extension('100')),
      (s) => s === 'UNKNOWN',
      'extension 100 UNKNOWN without AMI',
    );
    await peers.see('Asterisk manager not configured');

    await settings.show();
    const form = await settings.form('AMI connection');
    await form.check('Connect to the Asterisk manager');
    await form.fill({ Host: ami.host, Port: String(ami.port), User: 'console', Secret: 'ami-e2e-secret' });
    await form.save('Save AMI connection');
    await settings.see('AMI settings saved');

    // Ban rules and queue limits save through their own forms. Times are typed in a unit.
    const rules = await settings.form('Ban rules');
    await rules.field('Failures before a ban').fill('5');
    await rules.duration('Ban duration', '2', 'h');
    await rules.save('Save ban rules');
    await settings.see('Ban rules saved');
    const saved = (await server.call(`${V3}fail2ban`)).json.data;
    assert.equal(saved.maxretry, 5);
    assert.equal(saved.bantime, 7200);
    // Out of bounds: nothing is clamped; the value stays as typed and the server's answer shows under the field.
    await rules.duration('Counting window', '30', 's');
    await rules.save('Save ban rules');
    // The server's bound, in the units of the field's hint ("From 1 min to …").
    assert.match(await (await visible(rules.error('Counting window'))).innerText(), /1 min/);
    assert.equal(await rules.field('Counting window').inputValue(), '30');
    assert.equal((await server.call(`${V3}fail2ban`)).json.data.findtime, saved.findtime);
    const queue = await settings.form('Queue limits');
    await queue.field('Queue length').fill('80');
    await queue.save('Save queue limits');
    await settings.see('Queue limits saved');
    assert.equal((await server.call(`${V3}general-settings`)).json.data.APIQueueMaxLength, 80);
    // The HTTPS listener of this server runs with a self-signed certificate: its fingerprint is shown.
    const certificate = (await server.call(`${V3}system:getCertificate`)).json.data;
    assert.match(certificate.fingerprint256, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/i);
    await eventually(
      () => settings.httpsRuntime(),
      (t) => t.includes(certificate.fingerprint256),
      'the certificate fingerprint',
    );
    await browser.screenshot('settings');

    // The refused window is still typed in Ban rules: leaving asks first (the one unsaved-edits guard).
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => void dialog.accept().then(() => resolve(dialog.message()))),
    );
    await dashboard.show();
    assert.match(await asked, /not saved/);
    await eventually(
      () => dashboard.amiState(),
      (s) => /connected/i.test(s) && !/dis/i.test(s),
      'AMI connected on the dashboard',
    );

    await peers.show();
    await eventually(
      () => peers.state(peers.extension('100')),
      (s) => s === 'OK',
      'extension 100 OK',
    );
    assert.equal(await peers.text(/Asterisk manager (not configured|disconnected)/).count(), 0);
    assert.equal(await peers.state(peers.extension('101')), 'UNKNOWN');
    await peers.tab(/Providers/);
    await eventually(
      () => peers.state(peers.provider('Main trunk')),
      (s) => s === 'OK',
      'the provider registered',
    );
    await browser.screenshot('peers-providers');

    // Live: 101 registers in Asterisk and the page follows without a reload.
    await peers.tab(/Extensions/);
    ami.endpoints.set('101', {
      deviceState: 'Not in use',
      contact: { uri: 'sip:101@192.0.2.6:5060', status: 'Reachable' },
    });
    ami.emitEvent({ Event: 'DeviceStateChange', Device: 'PJSIP/101', State: 'NOT_INUSE' });
    await eventually(
      () => peers.state(peers.extension('101')),
      (s) => s === 'OK',
      'extension 101 OK after it registers',
      20_000,
    );
    await browser.screenshot('peers');

    await peers.openExtension('100');
    await eventually(
      () => peers.details(),
      (t) => t.includes('Yealink T46U') && t.includes('192.0.2.5:5060'),
      'the contact detail of 100',
    );
    await browser.screenshot('peer-detail');

    // Dark mode follows the system.
    await page.emulateMedia({ colorScheme: 'dark' });
    await dashboard.show();
    await eventually(
      () => dashboard.colorScheme(),
      (v) => v === 'dark',
      'the dark scheme',
    );
    await browser.screenshot('dashboard-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
