// Safe defaults and no dangling references (issue 22, items 1-3 and 9): a new key has no source until
// one is chosen; the bouncer-host filter grants only the export and says so; a localhost key is
// offered only loopback addresses; a filter lists the keys bound to it, and deleting it moves them
// first; a key bound to a filter that is gone says so; filters read as per-service rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { chooseOption, eventually, openScreen, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: safe keys and filters', () => {
  let server: TestServer;
  let browser: ConsoleBrowser;

  before(async () => {
    server = await startConsoleServer({ adminPassword: 'e2e-admin-password' });
    browser = await launchConsoleBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a new bouncer key has no source until one is chosen, and the bouncer-host filter grants only the export', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await openScreen(page, 'API keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'New API key' }));
    await dialog.getByLabel('Description').fill('edge firewall');
    const source = dialog.getByRole('combobox', { name: 'Allowed source' });
    assert.equal(await source.inputValue(), '', 'no source chosen by default');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await visible(dialog.getByText(/Choose where the key will be used from/));
    assert.equal((await server.call(`${V3}api-keys`)).json.data.length, 0, 'nothing created without a source');

    // "Any address" is there, last, with its consequence in its name.
    await source.click();
    const options = await page.getByRole('option').allInnerTexts();
    assert.equal(options.at(-1), 'Any address: the key works wherever it leaks to (not recommended)');
    assert.equal(options[0], 'This computer only (localhost)');
    await page.keyboard.press('Escape');

    await dialog.getByRole('button', { name: 'New filter for the bouncer host' }).click();
    await visible(dialog.getByTestId('bouncer-filter-effect').filter({ hasText: 'grants the host nothing else' }));
    await dialog.getByLabel('Bouncer host IP').fill('192.0.2.10');
    await dialog.getByRole('button', { name: 'Create filter' }).click();
    await eventually(
      () => source.inputValue(),
      (v) => v.startsWith('192.0.2.10/32'),
      'the new filter to be selected',
    );
    await browser.screenshot('safe-keys-new-key');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await visible(page.getByTestId('issued-key'));
    await page.getByRole('button', { name: 'I have copied it' }).click();

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
    const { page } = browser;
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'New API key' }));
    await dialog.getByLabel('Description').fill('local custom bouncer');
    await dialog.getByRole('radio', { name: 'crowdsec-custom-bouncer (your script)' }).check();
    await chooseOption(
      page,
      dialog.getByRole('combobox', { name: 'Allowed source' }),
      'This computer only (localhost)',
    );
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const issued = await visible(page.getByTestId('issued-key'));
    await issued.getByRole('combobox', { name: 'Address the bouncer host reaches this server on' }).click();
    const offered = await page.getByRole('option').allInnerTexts();
    assert.ok(offered.length >= 1);
    for (const url of offered)
      assert.match(url, /^https?:\/\/(127\.|\[::1\]|localhost)/, `${url} is a loopback address`);
    await page.keyboard.press('Escape');
    await visible(issued.getByText('This key is accepted from this computer only'));
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    const row = page.getByTestId('api-key-row').filter({ hasText: 'local custom bouncer' });
    await row.getByRole('button', { name: /Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Rotate…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
    const rotated = await visible(page.getByRole('dialog', { name: 'Key rotated: new value' }));
    // The bouncer chosen at creation is remembered: Rotate opens on the custom bouncer's configuration.
    await visible(rotated.getByRole('button', { name: 'Copy custom bouncer configuration' }));
    assert.equal(await rotated.getByRole('button', { name: 'Done' }).count(), 0);
    await rotated.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const stored = (
      (await server.call(`${V3}api-keys`)).json.data as Array<{ description: string; bouncer_setup: string | null }>
    ).find((k) => k.description === 'local custom bouncer');
    assert.equal(stored?.bouncer_setup, 'custom-bouncer');
    await row.getByRole('button', { name: /Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    const details = await visible(page.getByRole('dialog'));
    await visible(details.getByText('crowdsec-custom-bouncer (a script)'));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('Network filters: per-service rules in words, "Used by" names the keys, and a delete moves them first', async () => {
    const { page } = browser;
    await openScreen(page, 'Network filters');
    const row = await visible(page.getByTestId('filter-row').filter({ hasText: '192.0.2.10/32' }));
    await visible(row.getByLabel('SIP from 192.0.2.10/32: blocked'));
    await visible(row.getByTestId('filter-used-by-cell').filter({ hasText: 'edge firewall' }));
    await browser.screenshot('safe-keys-filters');

    await row.getByRole('button', { name: /Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Delete the filter for 192.0.2.10/32?' }));
    await visible(dialog.getByTestId('filter-used-by').filter({ hasText: 'edge firewall' }));
    await dialog.getByRole('button', { name: 'Move key and delete' }).click();
    await visible(dialog.getByText('Choose where the keys go first'));
    assert.ok(
      ((await server.call(`${V3}firewall`)).json.data as Array<{ permit: string }>).some(
        (f) => f.permit === '192.0.2.10/32',
      ),
      'nothing deleted yet',
    );
    await browser.screenshot('safe-keys-delete-filter');
    await chooseOption(
      page,
      dialog.getByRole('combobox', { name: 'Move the key to' }),
      'This computer only (localhost)',
    );
    await dialog.getByRole('button', { name: 'Move key and delete' }).click();
    await dialog.waitFor({ state: 'detached' });
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
      const { page } = browser;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.url}/api-keys`);
      await page.getByRole('button', { name: 'New API key' }).click();
      const dialog = await visible(page.getByRole('dialog', { name: 'New API key' }));
      await dialog.getByLabel('Description').fill('phone check');
      await chooseOption(
        page,
        dialog.getByRole('combobox', { name: 'Allowed source' }),
        'This computer only (localhost)',
      );
      await dialog.getByRole('button', { name: 'Create key' }).click();
      const issued = await visible(page.getByTestId('issued-key'));
      for (const option of ['Firewall bouncer', 'Custom bouncer', 'curl check']) {
        const box = await issued.getByText(option, { exact: true }).boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `"${option}" is on screen (${JSON.stringify(box)})`);
      }
      const overflow = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      assert.ok(overflow <= 390, `the page is ${overflow} px wide`);
      const violations = (await new AxeBuilder({ page }).include('[role="dialog"]').analyze()).violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      assert.deepEqual(
        violations.map((v) => v.id),
        [],
      );
      await browser.screenshot('safe-keys-issued-390');
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await page.setViewportSize({ width: 1360, height: 900 });
    },
  );

  it('a key whose filter is gone says so instead of naming it', async () => {
    const { page } = browser;
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
    await page.goto(`${server.url}/api-keys`);
    const row = await visible(page.getByTestId('api-key-row').filter({ hasText: 'orphaned key' }));
    await visible(row.getByText('Deleted filter: refused from every address'));
    assert.equal(await row.getByText(`Filter #${filterId}`).count(), 0);
  });
});
