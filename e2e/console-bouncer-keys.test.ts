// Flows 1 and 2 of the console: a bouncer key bound to a filter for the bouncer host, shown once
// with its YAML; then blocks, deletes and unbans seen by a real crowdsec-custom-bouncer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBouncerKeyInConsole } from './support/bouncer-key-dialog.ts';
import { useConsole } from './support/console-session.ts';
import { startCustomBouncer, type RunningBouncer } from './support/custom-bouncer.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: bouncer keys, blocks and unbans', () => {
  let bouncer: RunningBouncer | undefined;
  let apiKey = '';
  const app = useConsole({ cleanup: async () => await bouncer?.stop(), openAt: '/api-keys' });
  const { apiKeys, filters, bans: bansScreen, dashboard } = app.screens;

  it('creates a filter for the bouncer host inline, a key bound to it, and shows the key once with its YAML', async () => {
    const { server, browser, page } = app;
    const dialog = await apiKeys.openNew();

    // Submitting without a description shows the error beside the field, not a request.
    await dialog.submit();
    await dialog.see('Say what the key is for');

    await dialog.describe('Bouncer on fw1');
    assert.equal(await dialog.purpose('firewallBouncer').isChecked(), true);
    // The backend is chosen before the key exists; iptables (ranges of any size) is the default, and the
    // nftables choice says plainly what it cannot enforce.
    assert.equal(await dialog.backend('iptables').isChecked(), true);
    await dialog.see(
      /up to \/16 \(IPv4\) and \/112 \(IPv6\) expanded into single addresses\. Wider networks are only enforced in iptables mode/,
    );
    await dialog.newBouncerHostFilter('127.0.0.1', '127.0.0.1/32');
    await browser.screenshot('api-keys-create');
    const issued = await dialog.create();
    apiKey = await issued.value();
    assert.match(apiKey, /^[0-9a-f]{64}$/);
    // Every listening address is offered, loopback included, and a host the operator types.
    const port = new URL(server.url).port;
    const loopbackUrl = `http://127.0.0.1:${port}/pbxcore/api/v3/firewall-bouncer/`;
    await issued.address.click();
    await visible(apiKeys.option(loopbackUrl));
    await apiKeys.option('Another host name or address…').click();
    await issued.hostField.fill('http://pbx.example.net:8088');
    await issued.see('Enter only a host name or an IP address, without scheme, port or path.');
    assert.equal(
      await issued.button('Copy bouncer configuration').count(),
      0,
      'no configuration to copy with an invalid host',
    );
    await issued.hostField.fill('PBX.example.net');
    await issued.see(`api_url: http://pbx.example.net:${port}/pbxcore/api/v3/firewall-bouncer/`);
    await issued.chooseAddress(loopbackUrl);

    const yaml = await issued.copy(
      'Copy bouncer configuration',
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
    await issued.close();

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
    await visible(apiKeys.row('Bouncer on fw1'));
    assert.ok(!(await page.content()).includes(apiKey), 'the key is gone from the page once closed');
    await page.reload();
    await visible(apiKeys.row());
    assert.ok(!(await page.content()).includes(apiKey), 'the key is not shown after a reload');
  });

  it('blocks a network: the real bouncer polling with that key gets add, then del when the filter is deleted', async () => {
    const { server, browser } = app;
    bouncer = startCustomBouncer(`${server.url}/pbxcore/api/v3/firewall-bouncer/`, apiKey);

    // The dashboard shows the bouncer polling from the bound host.
    await dashboard.show();
    const row = await visible(dashboard.bouncer('Bouncer on fw1'));
    await eventually(
      () => row.getAttribute('data-state'),
      (s) => s === 'served',
      'the bouncer to poll',
    );
    assert.match(await row.innerText(), /127\.0\.0\.1/);
    await browser.screenshot('dashboard');

    await filters.show();
    const dialog = await filters.openBlock();
    await dialog.fill({ address: '203.0.113.300/24' });
    await dialog.submit();
    // The server's 422 shows beside the field.
    await dialog.see(/not a valid/i);
    await dialog.fill({ address: '203.0.113.0/24', reason: 'Scanner seen on SIP' });
    await dialog.submit();
    await visible(filters.row('203.0.113.0/24'));
    await browser.screenshot('network-filters');
    await bouncer.waitFor('add', '203.0.113.0/24');

    await filters.delete('203.0.113.0/24');
    await bouncer.waitFor('del', '203.0.113.0/24');
  });

  it('unbans an address from the Bans screen: the bouncer gets del', async () => {
    const { server, browser } = app;
    assert.equal((await server.call(`${V3}fail2ban`, { method: 'PATCH', body: { maxretry: 1 } })).status, 200);
    // A failed login from another host is a real intrusion attempt: it bans 127.0.0.2 in the http category.
    const failed = await server.remote(`${V3}auth:login`, {
      method: 'POST',
      body: { login: 'admin', password: 'wrong-password' },
    });
    assert.equal(failed.status, 401);
    await bouncer!.waitFor('add', '127.0.0.2');

    // The dashboard counts it under Web, and the history chart has it.
    await dashboard.show();
    await eventually(
      () => dashboard.banCount('http'),
      (t) => /\b1\b/.test(t),
      'one web ban on the dashboard',
    );
    assert.match(await dashboard.banCount('sip'), /\b0\b/);
    await dashboard.chartBar('http');
    await browser.screenshot('dashboard-bans');

    await bansScreen.show();
    const row = await visible(bansScreen.row('127.0.0.2'));
    assert.match(await row.innerText(), /\bweb\b/i);
    const first = await bansScreen.timeLeft(row).innerText();
    const later = await eventually(
      () => bansScreen.timeLeft(row).innerText(),
      (text) => text !== first,
      'the countdown to tick',
    );
    assert.notEqual(later, first);
    // Filters: another category hides it, the IP filter keeps it.
    await bansScreen.category(/^SIP \(\d+\)$/);
    await bansScreen.see('No ban matches the filter');
    await bansScreen.category(/^All \(\d+\)$/);
    await bansScreen.filterByIp('127.0.0.2');
    await visible(bansScreen.row());
    await browser.screenshot('bans');

    await bansScreen.unban('127.0.0.2');
    // The address search is still on: the server-paged list says nothing matches it now.
    await bansScreen.see('No ban matches the filter');
    await bouncer!.waitFor('del', '127.0.0.2');
    const bans = (await server.call(`${V3}firewall:getBannedIps`)).json.data;
    assert.deepEqual(bans, []);
  });

  it('revoke disables the key (refused at once, enable restores it); rotate shows a new value once; delete asks first', async () => {
    const { server, browser, page } = app;
    await bouncer?.stop();
    bouncer = undefined;

    // A bouncer that stopped polling is judged silent by the server (after 30 s without a poll) and the dashboard says so.
    await dashboard.show();
    const bouncerRow = dashboard.bouncer('Bouncer on fw1');
    await eventually(
      () => bouncerRow.getAttribute('data-state'),
      (s) => s === 'silent',
      'the silent bouncer',
      60_000,
    );
    await browser.screenshot('dashboard-silent-bouncer');

    const stream = (key: string) =>
      server.call('/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream', { headers: { 'X-Api-Key': key } });

    await apiKeys.show();
    const row = apiKeys.row('Bouncer on fw1');
    await eventually(
      () => row.innerText(),
      (t) => /from 127\.0\.0\.1/.test(t),
      'the last use of the key',
    );
    await browser.screenshot('api-keys');

    // Revoking is disabling: the same key is refused with 401 and a clear message until it is enabled.
    await apiKeys.disable('Bouncer on fw1');
    await eventually(
      () => apiKeys.status('Bouncer on fw1'),
      (t) => t === 'Disabled',
      'the Disabled badge',
    );
    const disabled = await stream(apiKey);
    assert.equal(disabled.status, 401, 'the disabled key is refused');
    assert.match(disabled.json.message, /this API key is disabled/i);
    await apiKeys.action('Bouncer on fw1', 'Enable');
    await eventually(
      () => apiKeys.status('Bouncer on fw1'),
      (t) => t === 'Active',
      'the Active badge',
    );
    assert.equal((await stream(apiKey)).status, 200, 'enabled again');

    const issued = await apiKeys.rotate('Bouncer on fw1');
    const replacement = await issued.value();
    assert.match(replacement, /^[0-9a-f]{64}$/);
    assert.notEqual(replacement, apiKey);
    assert.equal((await stream(apiKey)).status, 401, 'the rotated-away value is refused');
    assert.equal((await stream(replacement)).status, 200, 'the new value works from the bound host');
    await issued.close();
    assert.ok(!(await page.content()).includes(replacement));

    await apiKeys.action('Bouncer on fw1', 'Delete…');
    await visible(apiKeys.dialog(/Delete/));
    await apiKeys.confirm('Cancel', /Delete/);
    await visible(row);
    await apiKeys.action('Bouncer on fw1', 'Delete…');
    await apiKeys.confirm('Delete key', /Delete/);
    await apiKeys.see('No API keys');
    assert.equal((await stream(replacement)).status, 401, 'a deleted key is refused');
  });

  it('an nftables bouncer key has the server expand ranges, and its YAML has the nftables section', async () => {
    const { server, page } = app;
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
    const issued = await apiKeys.rotate('Bouncer on fw2 (nftables)');
    const replacement = await issued.value();
    await issued.see('crowdsec-firewall-bouncer configuration (nftables mode)');
    const reissued = await issued.copy(
      'Copy bouncer configuration',
      (text) => text.includes(`api_key: ${replacement}`),
      'the replacement configuration',
    );
    assert.match(reissued, /^mode: nftables$/m);
    await issued.close();
  });
});
