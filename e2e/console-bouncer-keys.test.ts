// Flows 1 and 2 of the console: a bouncer key bound to a filter for the bouncer host, shown once
// with its YAML; then blocks, deletes and unbans seen by a real crowdsec-custom-bouncer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { BACKEND_RADIO, createBouncerKeyInConsole } from './support/bouncer-key-dialog.ts';
import { startCustomBouncer, type RunningBouncer } from './support/custom-bouncer.ts';
import { eventually, openScreen, readClipboard, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: bouncer keys, blocks and unbans', () => {
  let server: TestServer;
  let browser: ConsoleBrowser;
  let bouncer: RunningBouncer | undefined;
  let apiKey = '';

  before(async () => {
    server = await startConsoleServer({ adminPassword: 'e2e-admin-password' });
    browser = await launchConsoleBrowser();
  });

  after(async () => {
    await bouncer?.stop();
    await browser?.close();
    await server?.close();
  });

  it('creates a filter for the bouncer host inline, a key bound to it, and shows the key once with its YAML', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await openScreen(page, 'API keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'New API key' }));

    // Submitting without a description shows the error beside the field, not a request.
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await visible(dialog.getByText('Say what the key is for'));

    await dialog.getByLabel('Description').fill('Bouncer on fw1');
    assert.equal(
      await dialog.getByRole('radio', { name: 'Firewall bouncer: read-only firewall export' }).isChecked(),
      true,
    );
    // The backend is chosen before the key exists; iptables (ranges of any size) is the default, and the
    // nftables choice says plainly what it cannot enforce.
    assert.equal(await dialog.getByRole('radio', { name: BACKEND_RADIO.iptables, exact: true }).isChecked(), true);
    await visible(
      dialog.getByText(
        /up to \/16 \(IPv4\) and \/112 \(IPv6\) expanded into single addresses\. Wider networks are only enforced in iptables mode/,
      ),
    );
    await dialog.getByRole('button', { name: 'New filter for the bouncer host' }).click();
    await dialog.getByLabel('Bouncer host IP').fill('127.0.0.1');
    await dialog.getByRole('button', { name: 'Create filter' }).click();
    await eventually(
      () => dialog.getByRole('combobox', { name: 'Allowed source' }).inputValue(),
      (v) => v.startsWith('127.0.0.1/32'),
      'the new filter to be selected',
    );
    await browser.screenshot('api-keys-create');
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const issued = await visible(page.getByTestId('issued-key'));
    apiKey = (await issued.locator('code').first().innerText()).trim();
    assert.match(apiKey, /^[0-9a-f]{64}$/);
    // Every listening address is offered, loopback included, and a host the operator types.
    const port = new URL(server.url).port;
    const loopbackUrl = `http://127.0.0.1:${port}/pbxcore/api/v3/firewall-bouncer/`;
    const address = issued.getByRole('combobox', { name: 'Address the bouncer host reaches this server on' });
    await address.click();
    await visible(page.getByRole('option', { name: loopbackUrl }));
    await page.getByRole('option', { name: 'Another host name or address…' }).click();
    const host = issued.getByLabel('Host name or address');
    await host.fill('http://pbx.example.net:8088');
    await visible(issued.getByText('Enter only a host name or an IP address, without scheme, port or path.'));
    assert.equal(
      await issued.getByRole('button', { name: 'Copy bouncer configuration' }).count(),
      0,
      'no configuration to copy with an invalid host',
    );
    await host.fill('PBX.example.net');
    await visible(issued.getByText(`api_url: http://pbx.example.net:${port}/pbxcore/api/v3/firewall-bouncer/`));
    await address.click();
    await page.getByRole('option', { name: loopbackUrl }).click();

    await issued.getByRole('button', { name: 'Copy bouncer configuration' }).click();
    const yaml = await eventually(
      () => readClipboard(page),
      (text) => text.includes('api_key:'),
      'the YAML on the clipboard',
    );
    assert.match(yaml, new RegExp(`^api_key: ${apiKey}$`, 'm'));
    assert.match(yaml, new RegExp(`^api_url: ${loopbackUrl.replaceAll('.', '\\.')}$`, 'm'));
    // What the Debian package needs in iptables mode (key names of its own crowdsec-firewall-bouncer.yaml).
    assert.match(yaml, /^mode: iptables$/m);
    assert.match(yaml, /^iptables_chains:\n {2}- INPUT$/m);
    assert.match(yaml, /^update_frequency: (5|10)s$/m);
    assert.match(
      yaml,
      /^daemonize: true$/m,
      'the packaged systemd unit (Type=notify) needs the ready signal only daemonize: true sends',
    );
    assert.doesNotMatch(yaml, /^nftables:/m);
    await browser.screenshot('api-keys-new-key');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // The key is bound to the filter, and can never be seen again: not in the page, not after a reload, not from the API.
    const filters = (await server.call(`${V3}firewall`)).json.data as Array<{ id: number; permit: string }>;
    const filter = filters.find((f) => f.permit === '127.0.0.1/32');
    assert.ok(filter, 'the inline filter exists');
    const keys = (await server.call(`${V3}api-keys`)).json;
    assert.equal(keys.data.length, 1);
    assert.equal(keys.data[0].networkfilterid, String(filter.id));
    assert.deepEqual(keys.data[0].allowed_paths, { '/api/v3/firewall-bouncer': 'read' });
    assert.equal(keys.data[0].expand_ranges, false, 'an iptables bouncer receives ranges as ranges');
    assert.ok(!JSON.stringify(keys).includes(apiKey));
    await visible(page.getByTestId('api-key-row').filter({ hasText: 'Bouncer on fw1' }));
    assert.ok(!(await page.content()).includes(apiKey), 'the key is gone from the page once closed');
    await page.reload();
    await visible(page.getByTestId('api-key-row'));
    assert.ok(!(await page.content()).includes(apiKey), 'the key is not shown after a reload');
  });

  it('blocks a network: the real bouncer polling with that key gets add, then del when the filter is deleted', async () => {
    const { page } = browser;
    bouncer = startCustomBouncer(`${server.url}/pbxcore/api/v3/firewall-bouncer/`, apiKey);

    // The dashboard shows the bouncer polling from the bound host.
    await openScreen(page, 'Dashboard');
    const row = await visible(page.getByTestId('bouncer-row').filter({ hasText: 'Bouncer on fw1' }));
    await eventually(
      () => row.getAttribute('data-state'),
      (s) => s === 'served',
      'the bouncer to poll',
    );
    assert.match(await row.innerText(), /127\.0\.0\.1/);
    await browser.screenshot('dashboard');

    await openScreen(page, 'Network filters');
    await page.getByRole('button', { name: 'Block a network' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Block a network' }));
    await dialog.getByLabel('Address or network').fill('203.0.113.300/24');
    await dialog.getByRole('button', { name: 'Block' }).click();
    // The server's 422 shows beside the field.
    await visible(dialog.getByText(/not a valid/i));
    await dialog.getByLabel('Address or network').fill('203.0.113.0/24');
    await dialog.getByLabel('Reason').fill('Scanner seen on SIP');
    await dialog.getByRole('button', { name: 'Block' }).click();
    await visible(page.getByTestId('filter-row').filter({ hasText: '203.0.113.0/24' }));
    await browser.screenshot('network-filters');
    await bouncer.waitFor('add', '203.0.113.0/24');

    await page.getByRole('button', { name: 'Actions for 203.0.113.0/24' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete filter' }).click();
    await page.getByTestId('filter-row').filter({ hasText: '203.0.113.0/24' }).waitFor({ state: 'detached' });
    await bouncer.waitFor('del', '203.0.113.0/24');
  });

  it('unbans an address from the Bans screen: the bouncer gets del', async () => {
    const { page } = browser;
    assert.equal((await server.call(`${V3}fail2ban`, { method: 'PATCH', body: { maxretry: 1 } })).status, 200);
    // A failed login from another host is a real intrusion attempt: it bans 127.0.0.2 in the http category.
    const failed = await server.remote(`${V3}auth:login`, {
      method: 'POST',
      body: { login: 'admin', password: 'wrong-password' },
    });
    assert.equal(failed.status, 401);
    await bouncer!.waitFor('add', '127.0.0.2');

    // The dashboard counts it under Web, and the history chart has it.
    await openScreen(page, 'Dashboard');
    await eventually(
      () => page.getByTestId('ban-count-http').innerText(),
      (t) => /\b1\b/.test(t),
      'one web ban on the dashboard',
    );
    assert.match(await page.getByTestId('ban-count-sip').innerText(), /\b0\b/);
    await page.locator('svg[aria-labelledby="ban-history-title"] rect[data-series="http"]').first().waitFor();
    await browser.screenshot('dashboard-bans');

    await openScreen(page, 'Bans');
    const row = await visible(page.getByTestId('ban-row').filter({ hasText: '127.0.0.2' }));
    assert.match(await row.innerText(), /\bweb\b/i);
    const first = await row.getByTestId('ban-time-left').innerText();
    const later = await eventually(
      () => row.getByTestId('ban-time-left').innerText(),
      (text) => text !== first,
      'the countdown to tick',
    );
    assert.notEqual(later, first);
    // Filters: another category hides it, the IP filter keeps it.
    await page.getByText(/^SIP \(\d+\)$/).click();
    await visible(page.getByText('No ban matches the filter'));
    await page.getByText(/^All \(\d+\)$/).click();
    await page.getByLabel('Filter by IP address').fill('127.0.0.2');
    await visible(page.getByTestId('ban-row'));
    await browser.screenshot('bans');

    await row.getByRole('button', { name: 'Unban 127.0.0.2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unban' }).click();
    await visible(page.getByText('No active bans'));
    await bouncer!.waitFor('del', '127.0.0.2');
    const bans = (await server.call(`${V3}firewall:getBannedIps`)).json.data;
    assert.deepEqual(bans, []);
  });

  it('revoke disables the key (refused at once, enable restores it); rotate shows a new value once; delete asks first', async () => {
    const { page } = browser;
    await bouncer?.stop();
    bouncer = undefined;

    // A bouncer that stopped polling is judged silent by the server (after 30 s without a poll) and the dashboard says so.
    await openScreen(page, 'Dashboard');
    const bouncerRow = page.getByTestId('bouncer-row').filter({ hasText: 'Bouncer on fw1' });
    await eventually(
      () => bouncerRow.getAttribute('data-state'),
      (s) => s === 'silent',
      'the silent bouncer',
      60_000,
    );
    await browser.screenshot('dashboard-silent-bouncer');

    const stream = (key: string) =>
      server.call('/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream', { headers: { 'X-Api-Key': key } });

    await openScreen(page, 'API keys');
    const row = page.getByTestId('api-key-row').filter({ hasText: 'Bouncer on fw1' });
    await eventually(
      () => row.innerText(),
      (t) => /from 127\.0\.0\.1/.test(t),
      'the last use of the key',
    );
    await browser.screenshot('api-keys');

    // Revoking is disabling: the same key is refused with 401 and a clear message until it is enabled.
    await page.getByRole('button', { name: 'Actions for Bouncer on fw1' }).click();
    await page.getByRole('menuitem', { name: 'Disable…' }).click();
    await page
      .getByRole('dialog', { name: /Disable/ })
      .getByRole('button', { name: 'Disable key' })
      .click();
    await eventually(
      () => row.getByTestId('api-key-status').textContent(),
      (t) => t === 'Disabled',
      'the Disabled badge',
    );
    const disabled = await stream(apiKey);
    assert.equal(disabled.status, 401, 'the disabled key is refused');
    assert.match(disabled.json.message, /this API key is disabled/i);
    await page.getByRole('button', { name: 'Actions for Bouncer on fw1' }).click();
    await page.getByRole('menuitem', { name: 'Enable' }).click();
    await eventually(
      () => row.getByTestId('api-key-status').textContent(),
      (t) => t === 'Active',
      'the Active badge',
    );
    assert.equal((await stream(apiKey)).status, 200, 'enabled again');

    await page.getByRole('button', { name: 'Actions for Bouncer on fw1' }).click();
    await page.getByRole('menuitem', { name: 'Rotate…' }).click();
    await page
      .getByRole('dialog', { name: /Rotate/ })
      .getByRole('button', { name: 'Rotate key' })
      .click();
    const issued = await visible(page.getByTestId('issued-key'));
    const replacement = (await issued.locator('code').first().innerText()).trim();
    assert.match(replacement, /^[0-9a-f]{64}$/);
    assert.notEqual(replacement, apiKey);
    assert.equal((await stream(apiKey)).status, 401, 'the rotated-away value is refused');
    assert.equal((await stream(replacement)).status, 200, 'the new value works from the bound host');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.ok(!(await page.content()).includes(replacement));

    await page.getByRole('button', { name: 'Actions for Bouncer on fw1' }).click();
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    const confirm = await visible(page.getByRole('dialog', { name: /Delete/ }));
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await visible(row);
    await page.getByRole('button', { name: 'Actions for Bouncer on fw1' }).click();
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    await page
      .getByRole('dialog', { name: /Delete/ })
      .getByRole('button', { name: 'Delete key' })
      .click();
    await visible(page.getByText('No API keys'));
    assert.equal((await stream(replacement)).status, 401, 'a deleted key is refused');
  });

  it('an nftables bouncer key has the server expand ranges, and its YAML has the nftables section', async () => {
    const { page } = browser;
    const { apiKey: key, yaml } = await createBouncerKeyInConsole(page, {
      description: 'Bouncer on fw2 (nftables)',
      backend: 'nftables',
      bouncerHostIp: '127.0.0.1',
    });
    assert.match(yaml, /^mode: nftables$/m);
    assert.match(
      yaml,
      /^nftables:\n {2}ipv4:\n {4}enabled: true\n {4}set-only: false\n {4}table: crowdsec\n {4}chain: crowdsec-chain$/m,
    );
    assert.doesNotMatch(yaml, /^iptables_chains:/m);
    const record = (
      (await server.call(`${V3}api-keys`)).json.data as Array<{ description: string; expand_ranges: boolean }>
    ).find((k) => k.description === 'Bouncer on fw2 (nftables)');
    assert.equal(record?.expand_ranges, true);

    // The stream for this key carries a blocked /24 as its 256 addresses, not as one range.
    const filter = await server.call(`${V3}firewall`, {
      method: 'POST',
      body: { permit: '203.0.113.0/24', deny: '203.0.113.0/24' },
    });
    assert.equal(filter.status, 201, filter.text);
    const stream = await server.call('/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream?startup=true', {
      headers: { 'X-Api-Key': key },
    });
    assert.equal(stream.status, 200, stream.text);
    const values = (stream.json.new as Array<{ value: string; scope: string }>).filter((d) =>
      d.value.startsWith('203.0.113.'),
    );
    assert.equal(values.length, 256);
    assert.ok(values.every((d) => d.scope === 'Ip' && !d.value.includes('/')));
    await server.call(`${V3}firewall/${filter.json.data.id}`, { method: 'DELETE' });

    // Its new value after a rotation keeps the record's backend: the configuration is for nftables mode.
    await page.getByRole('button', { name: 'Actions for Bouncer on fw2 (nftables)' }).click();
    await page.getByRole('menuitem', { name: 'Rotate…' }).click();
    await page
      .getByRole('dialog', { name: /Rotate/ })
      .getByRole('button', { name: 'Rotate key' })
      .click();
    const issued = await visible(page.getByTestId('issued-key'));
    const replacement = (await issued.locator('code').first().innerText()).trim();
    await visible(issued.getByText('crowdsec-firewall-bouncer configuration (nftables mode)'));
    await issued.getByRole('button', { name: 'Copy bouncer configuration' }).click();
    const reissued = await eventually(
      () => readClipboard(page),
      (text) => text.includes(`api_key: ${replacement}`),
      'the replacement configuration',
    );
    assert.match(reissued, /^mode: nftables$/m);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });
});
