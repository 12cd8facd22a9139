// Safe defaults and no dangling references (issue 22, items 1-3 and 9): a new key has no source until
// one is chosen; the bouncer-host filter grants only the export and says so; a localhost key is
// offered only loopback addresses; a filter lists the keys bound to it, and deleting it moves them
// first; a key bound to a filter that is gone says so; filters read as per-service rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { LOCALHOST_SOURCE } from './pages/api-keys.ts';
import { useConsole } from './support/console-session.ts';
import { visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: safe keys and filters', () => {
  const app = useConsole({ openAt: '/api-keys' });
  const { apiKeys, filters } = app.screens;

  it('a new bouncer key has no source until one is chosen, and the bouncer-host filter grants only the export', async () => {
    const { server, browser, page } = app;
    const dialog = await apiKeys.openNew();
    await dialog.describe('edge firewall');
    const source = dialog.source;
    assert.equal(await source.inputValue(), '', 'no source chosen by default');
    await dialog.submit();
    await dialog.see(/Choose where the key will be used from/);
    assert.equal((await server.call(`${V3}api-keys`)).json.data.length, 0, 'nothing created without a source');

    // "Any address" is there, last, with its consequence in its name.
    await source.click();
    const options = await apiKeys.options();
    assert.equal(options.at(-1), 'Any address: the key works wherever it leaks to (not recommended)');
    assert.equal(options[0], 'This computer only (localhost)');
    await page.keyboard.press('Escape');

    await dialog.openBouncerHostFilter();
    await visible(dialog.byTestId('bouncer-filter-effect', 'grants the host nothing else'));
    await dialog.createBouncerHostFilter('192.0.2.10', '192.0.2.10/32');
    await browser.screenshot('safe-keys-new-key');
    await dialog.create();
    await apiKeys.press('I have copied it');

    const filter = (
      (await server.call(`${V3}firewall`)).json.data as Array<{
        id: number;
        permit: string;
        description: string;
        rules: Record<string, string>;
      }>
    ).find((f) => f.permit === '192.0.2.10/32');
    assert.ok(filter);
    assert.deepEqual(
      { SIP: filter.rules.SIP, WEB: filter.rules.WEB, AMI: filter.rules.AMI, IAX: filter.rules.IAX },
      { SIP: 'block', WEB: 'block', AMI: 'block', IAX: 'block' },
    );
    assert.match(filter.description, /firewall export only/);
    const keys = (await server.call(`${V3}api-keys`)).json.data as Array<{
      description: string;
      networkfilterid: string;
    }>;
    assert.deepEqual(
      keys.map((k) => [k.description, k.networkfilterid]),
      [['edge firewall', String(filter.id)]],
    );
  });

  it('a key for this computer is offered only loopback addresses, and Rotate says what its button does', async () => {
    const { server, page } = app;
    const dialog = await apiKeys.openNew();
    await dialog.describe('local custom bouncer');
    await dialog.purpose('customBouncer').check();
    await dialog.chooseSource(LOCALHOST_SOURCE);
    const issued = await dialog.create();
    await issued.address.click();
    const offered = await apiKeys.options();
    assert.ok(offered.length >= 1);
    for (const url of offered)
      assert.match(url, /^https?:\/\/(127\.|\[::1\]|localhost)/, `${url} is a loopback address`);
    await page.keyboard.press('Escape');
    await issued.see('This key is accepted from this computer only');
    await issued.close();

    const row = apiKeys.row('local custom bouncer');
    await apiKeys.rowAction(/Actions for/, 'Rotate…', row);
    await apiKeys.confirm('Rotate key');
    const rotated = await visible(apiKeys.dialog('Key rotated: new value'));
    // The bouncer chosen at creation is remembered: Rotate opens on the custom bouncer's configuration.
    await visible(rotated.getByRole('button', { name: 'Copy custom bouncer configuration' }));
    assert.equal(await rotated.getByRole('button', { name: 'Done' }).count(), 0);
    await rotated.getByRole('button', { name: 'I have copied it' }).click();
    await apiKeys.dialogsClosed();
    const stored = (
      (await server.call(`${V3}api-keys`)).json.data as Array<{ description: string; bouncer_setup: string | null }>
    ).find((k) => k.description === 'local custom bouncer');
    assert.equal(stored?.bouncer_setup, 'custom-bouncer');
    await apiKeys.rowAction(/Actions for/, 'Details', row);
    const details = await visible(apiKeys.dialog());
    await visible(details.getByText('crowdsec-custom-bouncer (a script)'));
    await page.keyboard.press('Escape');
    await apiKeys.dialogsClosed();
  });

  it('Network filters: per-service rules in words, "Used by" names the keys, and a delete moves them first', async () => {
    const { server, browser } = app;
    await filters.show();
    const row = await visible(filters.row('192.0.2.10/32'));
    await visible(filters.rule(row, 'SIP from 192.0.2.10/32: blocked'));
    await visible(filters.usedBy(row, 'edge firewall'));
    await browser.screenshot('safe-keys-filters');

    const dialog = await filters.openDelete('192.0.2.10/32');
    await visible(dialog.usedBy('edge firewall'));
    await dialog.moveAndDelete();
    await dialog.see('Choose where the keys go first');
    assert.ok(
      ((await server.call(`${V3}firewall`)).json.data as Array<{ permit: string }>).some(
        (f) => f.permit === '192.0.2.10/32',
      ),
      'nothing deleted yet',
    );
    await browser.screenshot('safe-keys-delete-filter');
    await dialog.moveTo(LOCALHOST_SOURCE);
    await dialog.moveAndDelete();
    await dialog.root.waitFor({ state: 'detached' });
    assert.ok(
      !((await server.call(`${V3}firewall`)).json.data as Array<{ permit: string }>).some(
        (f) => f.permit === '192.0.2.10/32',
      ),
      'the filter is gone',
    );
    const keys = (await server.call(`${V3}api-keys`)).json.data as Array<{
      description: string;
      networkfilterid: string;
    }>;
    assert.equal(
      keys.find((k) => k.description === 'edge firewall')?.networkfilterid,
      'localhost',
      'the key was moved, not left dangling',
    );
  });

  it(
    'on a phone (390 px) the issued key dialog fits: the configuration switch and its lines ' +
      'stay on screen, no serious axe violation',
    async () => {
      const { browser, page } = app;
      await page.setViewportSize({ width: 390, height: 844 });
      await app.open('/api-keys');
      const dialog = await apiKeys.openNew();
      await dialog.describe('phone check');
      await dialog.chooseSource(LOCALHOST_SOURCE);
      const issued = await dialog.create();
      for (const option of ['Firewall bouncer', 'Custom bouncer', 'curl check']) {
        const box = await issued.tab(option).boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `"${option}" is on screen (${JSON.stringify(box)})`);
      }
      const overflow = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      assert.ok(overflow <= 390, `the page is ${overflow} px wide`);
      const violations = (await axeAudit(page).include('[role="dialog"]').analyze()).violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      assert.deepEqual(
        violations.map((v) => v.id),
        [],
      );
      await browser.screenshot('safe-keys-issued-390');
      await apiKeys.press('I have copied it');
      await page.setViewportSize({ width: 1360, height: 900 });
    },
  );

  it('a key whose filter is gone says so instead of naming it', async () => {
    const { server } = app;
    // A binding left from before deletes were guarded: the filter row removed underneath the key.
    const db = server.server.services.db;
    const filterId = Number(
      db
        .prepare(
          `INSERT INTO network_filters (permit, deny, description, newer_block_ip, local_network, ` +
            `rules) VALUES ('198.51.100.0/24', '0.0.0.0/0', 'old', 0, 0, '{}')`,
        )
        .run().lastInsertRowid,
    );
    createTestApiKey(db, { description: 'orphaned key', networkFilterId: String(filterId) });
    db.prepare('DELETE FROM network_filters WHERE id = ?').run(filterId);
    await app.open('/api-keys');
    const row = await visible(apiKeys.row('orphaned key'));
    await visible(row.getByText('Deleted filter: refused from every address'));
    assert.equal(await row.getByText(`Filter #${filterId}`).count(), 0);
  });
});
