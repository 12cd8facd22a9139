// Ban lists in the console: the "Router feed" key preset (its feed URL fetched by curl with the key
// as the Basic password, its MikroTik script), and bulk import (refused lines listed, preview, import)
// and export (a downloaded file that lists the imported bans) on the Bans page.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import { LOCALHOST_SOURCE } from './pages/api-keys.ts';
import { RouterOsModel } from '../src-server/test-support/routeros-model.ts';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const run = promisify(execFile);
const V3 = '/pbxcore/api/v3/';

describe('console: router feed preset and ban list import/export', () => {
  const app = useConsole({ openAt: '/api-keys' });
  const { apiKeys, bans } = app.screens;

  it('the Router feed preset gives a feed URL a router can fetch, and a MikroTik script', async () => {
    const { server, browser } = app;
    const banned = await server.call(`${V3}firewall:banIp`, {
      method: 'POST',
      body: { ip: '203.0.113.45', duration: '1h' },
    });
    assert.equal(banned.status, 201);
    // A key has no source until one is chosen; curl below fetches from this computer.
    const dialog = await apiKeys.fillNew({
      description: 'Router gw1',
      purpose: 'routerFeed',
      source: LOCALHOST_SOURCE,
    });
    await dialog.submit();

    const panel = await apiKeys.panel('router-feed');
    const apiKey = await (await apiKeys.issued()).value();
    assert.match(apiKey, /^[0-9a-f]{64}$/);
    const port = new URL(server.url).port;
    await panel.pick(
      'Address the router reaches this server on',
      `http://127.0.0.1:${port}/pbxcore/api/v3/firewall-bouncer/`,
    );
    await browser.screenshot('api-keys-router-feed');

    const url = await panel.copy(
      'Copy feed URL',
      (text) => text.includes('/blocklist?format=plain_text'),
      'the feed URL on the clipboard',
    );
    assert.equal(
      url,
      `http://feed:${apiKey}@127.0.0.1:${port}/pbxcore/api/v3/firewall-bouncer/blocklist?format=plain_text`,
    );
    // A router fetches it as it is, credentials in the URL.
    const { stdout } = await run('curl', ['--silent', '--fail', url]);
    assert.equal(stdout, '203.0.113.45\n');
    assert.match(await panel.root.innerText(), /OPNsense: URL Table alias[\s\S]*URL Table \(IPs\)/);

    await panel.pick('Feed format', 'MikroTik RouterOS script');
    const script = await panel.copy(
      'Copy MikroTik script',
      (text) => text.includes('/system scheduler add'),
      'the MikroTik script on the clipboard',
    );
    assert.ok(script.includes(`http-header-field="X-Api-Key: ${apiKey}"`));
    // The script sends back the cursor the last run left (empty at first): `url=("<feed>&since=" . $PbxFeed…)`.
    const fetchUrl = (/url=\("([^"]+&since=)" \. \$PbxFeedpbxblocklist\)/.exec(script)?.[1] ?? '').replace('\\?', '?');
    assert.match(script, /:global PbxFeedpbxblocklist\n/);
    assert.doesNotMatch(script, /[^\\]\?/, 'every ? escaped: pasted bare, it opens the RouterOS help');
    const feed = await run('curl', ['--silent', '--fail', '-H', `X-Api-Key: ${apiKey}`, fetchUrl]);
    assert.match(feed.stdout, /^\$CrowdSecAddIP "203\.0\.113\.45" "pbx\/manual" "\d+s"$/m);
    const router = new RouterOsModel();
    router.run(feed.stdout, Date.now());
    assert.deepEqual([...router.entries('ip', 'pbx-blocklist', Date.now()).keys()], ['203.0.113.45']);
    const since = router.globals.get('PbxFeedpbxblocklist') ?? '';
    const delta = await run('curl', ['--silent', '--fail', '-H', `X-Api-Key: ${apiKey}`, `${fetchUrl}${since}`]);
    router.run(delta.stdout, Date.now());
    assert.equal(router.ran.swap, undefined, 'the next fetch, with the cursor, is a delta');
    await apiKeys.press('I have copied it');
  });

  it('imports a ban list all or nothing, with a preview, and exports it back', async () => {
    const { server, browser, page } = app;
    await bans.show();
    const dialog = await bans.openImport();
    await dialog.format(/^OPNsense/);
    await dialog.list('198.51.100.7 scanner\n10.0.0.5/24 typo\n198.51.100.30-198.51.100.20 reversed\n127.0.0.1 self');
    await dialog.button('Preview').click();
    const alert = await dialog.alert();
    await eventually(
      () => alert.innerText(),
      (text) => /Nothing was imported: 3 lines refused/.test(text),
      'the refused lines',
    );
    const listed = await alert.innerText();
    assert.match(listed, /line 2: 10\.0\.0\.5\/24 has host bits set/);
    assert.match(listed, /line 3: range .* ends reversed/);
    assert.match(listed, /line 4: 127\.0\.0\.1 covers this PBX's own loopback/);
    assert.equal(await dialog.button('Import').isDisabled(), true, 'nothing to import before a clean preview');
    const violations = (await axeAudit(page).include('[role="dialog"]').analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    assert.deepEqual(
      violations.map((v) => v.id),
      [],
      'the import dialog with its errors has no serious axe violation',
    );

    await dialog.list('198.51.100.7 scanner\n198.51.100.7 again\n198.51.100.20-198.51.100.23 lab\n2001:db8::9');
    await dialog.button('Preview').click();
    const outcome = await dialog.outcome();
    assert.match(
      await outcome.innerText(),
      /Would import: 3 new, 0 extended, 0 already banned for longer, 1 duplicate entries merged/,
    );
    await browser.screenshot('bans-import-preview');
    assert.equal((await server.call(`${V3}firewall:getBannedIps`)).json.data.length, 1, 'the preview wrote nothing');
    await dialog.button('Import').click();
    await bans.dialogsClosed();
    await bans.see('3 new and 0 extended bans');
    await visible(bans.row('198.51.100.20/30'));

    const exportDialog = await bans.openExport();
    await exportDialog.format(/^CSV/);
    const csv = await readFile((await exportDialog.download())!, 'utf8');
    assert.match(csv, /^value,duration,reason,scope,type,scenario,services\n/);
    for (const value of ['198.51.100.7', '198.51.100.20/30', '2001:db8::9', '203.0.113.45'])
      assert.match(csv, new RegExp(`^${value.replaceAll('.', '\\.')},`, 'm'));
    assert.match(csv, /^198\.51\.100\.7,\d+s,scanner,Ip,ban,pbx\/manual,$/m);
  });
});
