// Every console screen, loaded fresh and reloaded (nested paths too), checked with axe-core for
// serious and critical violations and photographed at desktop (1440 and 1280 px) and phone (390 px) widths.
// On the phone width nothing may overflow sideways and every row action must be on screen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seriousViolations } from './axe.ts';
import type { Page } from 'playwright-core';
import type { TestServer } from '../../src-server/test-support/server.ts';
import { Screen as ConsoleScreen } from '../pages/screen.ts';
import { useConsole } from './console-session.ts';
import { eventually, visible } from './page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const WIDTHS = [1440, 1280, 390] as const;
/**
 * Widths where axe runs and every dialog opens: one desktop and the phone. 1440 px is the same
 * desktop layout, only wider, so it is checked for fit and photographed, not audited again.
 */
const AXE_WIDTHS = new Set<number>([1280, 390]);

interface Screen {
  name: string;
  path: string;
  heading: string;
  /** Text that is on the screen once its data has loaded. */
  ready: string;
  /** Rows whose actions (buttons and links inside them) must be on screen. */
  rowTestId?: string;
  /**
   * Buttons that open a dialog, checked with axe and photographed too. `form`: the dialog is a form; it is
   * also sent empty and checked again showing its errors.
   */
  dialogs?: { button: string; name: string; form?: boolean }[];
}

const SCREENS: Screen[] = [
  { name: 'dashboard', path: '/', heading: 'Dashboard', ready: 'Refused bouncer requests' },
  {
    name: 'api-keys',
    path: '/api-keys',
    heading: 'API keys',
    ready: 'Bouncer on fw1.example.net',
    rowTestId: 'api-key-row',
    dialogs: [{ button: 'New API key', name: 'new-api-key', form: true }],
  },
  {
    name: 'network-filters',
    path: '/network-filters',
    heading: 'Network filters',
    ready: 'Office LAN',
    rowTestId: 'filter-row',
    dialogs: [
      { button: 'New filter', name: 'new-filter', form: true },
      { button: 'Block a network', name: 'block-network', form: true },
    ],
  },
  { name: 'whitelist', path: '/whitelist', heading: 'Whitelist', ready: '198.51.100.7' },
  {
    name: 'bans',
    path: '/bans',
    heading: 'Bans',
    ready: '100.64.0.9',
    rowTestId: 'ban-row',
    dialogs: [
      { button: 'Unban 127.0.0.3', name: 'unban' },
      { button: 'Ban an address', name: 'ban-address', form: true },
    ],
  },
  // History rows have no actions; the address of the manual ban shows its data has loaded.
  { name: 'ban-history', path: '/bans/history', heading: 'Ban history', ready: '100.64.0.9' },
  {
    name: 'peers',
    path: '/peers',
    heading: 'Peers',
    ready: 'User 201',
    rowTestId: 'extension-row',
    dialogs: [{ button: 'New extension', name: 'new-extension', form: true }],
  },
  { name: 'peer-detail', path: '/peers/201', heading: 'Extension 201', ready: 'All peers' },
  {
    name: 'notifications',
    path: '/notifications',
    heading: 'Notifications',
    ready: 'No rules',
    dialogs: [{ button: 'New channel', name: 'new-channel', form: true }],
  },
  { name: 'settings', path: '/settings', heading: 'Settings', ready: 'Every change is saved.' },
  // The setup above is written through the API from localhost: each write is an entry.
  { name: 'audit-log', path: '/audit', heading: 'Audit log', ready: 'Created network filter', rowTestId: 'audit-row' },
];

async function expectCreated(server: TestServer, path: string, body: unknown): Promise<void> {
  const answer = await server.call(`${V3}${path}`, { method: 'POST', body });
  assert.ok(answer.status === 200 || answer.status === 201, `POST ${path}: ${answer.status} ${answer.text}`);
}

/** The screen is drawn (not a blank page from unloaded assets) and its data has arrived. */
async function waitForScreen(page: Page, screen: Screen): Promise<void> {
  const shown = new ConsoleScreen({ page });
  await visible(shown.heading(screen.heading, true));
  await visible(shown.text(screen.ready, false));
  await eventually(
    () => shown.loading(),
    (n) => n === 0,
    `${screen.name}: every loading state to end`,
  );
}

/**
 * The checks for one shard of the screens (index modulo `of` equals `shard`), with a console of its own: the
 * suite runs the shards as separate files at once (e2e/console-a11y-layout-*.test.ts), where one file of every
 * screen ran for minutes alone at the end of a loaded run.
 */
export function describeScreenLayouts(shard: number, of: number): void {
  describe(`console: every screen is accessible and fits desktop and phone widths (shard ${shard + 1} of ${of})`, () => {
    const app = useConsole({
      server: { adminPassword: 'a11y-e2e-password' },
      prepare: async (server) => {
        for (const number of ['201', '202', '203'])
          await expectCreated(server, 'extensions', {
            number,
            username: `User ${number}`,
            secret: 'long-enough-secret',
          });
        await expectCreated(server, 'providers', {
          description: 'Main trunk',
          host: 'sip.example.net',
          username: 'acme',
        });
        const office = {
          permit: '10.20.0.0/16',
          deny: '0.0.0.0/0',
          description: 'Office LAN',
          newer_block_ip: true,
          local_network: true,
        };
        await expectCreated(server, 'firewall', {
          ...office,
          currentRules: { SIP: true, WEB: true, AMI: false, IAX: false },
        });
        await expectCreated(server, 'firewall', {
          permit: '203.0.113.0/24',
          deny: '203.0.113.0/24',
          description: 'Scanner seen on SIP',
          newer_block_ip: false,
          local_network: false,
          currentRules: { SIP: false, WEB: false, AMI: false, IAX: false },
        });
        const bouncerPaths = { '/api/v3/firewall-bouncer': 'read' };
        await expectCreated(server, 'api-keys', {
          description: 'Bouncer on fw1.example.net',
          allowed_paths: bouncerPaths,
          full_permissions: false,
          networkfilterid: 'none',
        });
        await expectCreated(server, 'api-keys', {
          description: 'Provisioning script',
          allowed_paths: { '/api/v3/extensions': 'write', '/api/v3/providers': 'read' },
          full_permissions: false,
          networkfilterid: 'localhost',
        });
        // A bouncer refused with an unknown key (one failure, under the default limit: no ban): the
        // dashboard's "Refused bouncer requests" box is checked too.
        const refused = await server.call('/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream', {
          headers: { 'X-Api-Key': 'f'.repeat(64) },
          localAddress: '127.0.0.4',
        });
        assert.equal(refused.status, 401, refused.text);
        const rules = await server.call(`${V3}fail2ban`, {
          method: 'PATCH',
          body: { maxretry: 1, whitelist: '198.51.100.7 192.0.2.0/24' },
        });
        assert.equal(rules.status, 200, rules.text);
        // Failed sign-ins from other loopback addresses are real intrusion attempts: each bans its address.
        for (const address of ['127.0.0.2', '127.0.0.3']) {
          const failed = await server.call(`${V3}auth:login`, {
            method: 'POST',
            body: { login: 'admin', password: 'wrong-password' },
            localAddress: address,
          });
          assert.equal(failed.status, 401, failed.text);
        }
        // A manual ban for good, with a reason and some services: "Permanent", "Manual" and "Refused on" on screen.
        await expectCreated(server, 'firewall:banIp', {
          ip: '100.64.0.9',
          duration: 'permanent',
          reason: 'Toll fraud from this carrier-grade NAT',
          services: ['SIP', 'IAX'],
        });
        await eventually(
          async () => ((await server.call(`${V3}firewall:getBannedIps`)).json.data as unknown[]).length,
          (n) => n >= 3,
          'three bans',
        );
      },
    });
    const shell = new ConsoleScreen(app);

    for (const screen of SCREENS.filter((_, index) => index % of === shard)) {
      it(`${screen.path}: loads, survives a reload, fits 1440, 1280 and 390 px, with no serious axe violation at 1280 and 390 px`, async () => {
        const { browser, page } = app;
        await page.setViewportSize({ width: WIDTHS[0], height: 900 });
        // A direct load of the address, then a reload: what an operator's bookmark and F5 do.
        await app.open(screen.path);
        await waitForScreen(page, screen);
        await page.reload();
        await waitForScreen(page, screen);

        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
          await waitForScreen(page, screen);
          const axe = AXE_WIDTHS.has(width);
          if (axe) assert.deepEqual(await seriousViolations(page), [], `${screen.name} at ${width} px`);
          if (axe && width > 600) {
            // Hover and focus change colours: the active nav link hovered, then focused, then a table row hovered.
            const active = page.getByRole('navigation', { name: 'Main navigation' }).locator('[data-active]').first();
            await active.hover();
            await shell.transitionsEnded();
            assert.deepEqual(await seriousViolations(page), [], `${screen.name}: the active nav link hovered`);
            await active.focus();
            assert.deepEqual(await seriousViolations(page), [], `${screen.name}: the active nav link focused`);
            if (screen.rowTestId) {
              await page.getByTestId(screen.rowTestId).first().hover();
              await shell.transitionsEnded();
              assert.deepEqual(await seriousViolations(page), [], `${screen.name}: a table row hovered`);
            }
            await page.mouse.move(0, 0);
          }

          const overflow = (await page.evaluate('document.documentElement.scrollWidth')) as number;
          assert.ok(
            overflow <= width,
            `${screen.name} at ${width} px is ${overflow} px wide: something overflows sideways`,
          );

          if (screen.rowTestId) {
            const controls = shell.rowControls(screen.rowTestId);
            assert.ok((await controls.count()) > 0, `${screen.name}: rows have actions`);
            for (const control of await controls.all()) {
              const box = await control.boundingBox();
              const name = (await control.getAttribute('aria-label')) ?? (await control.innerText());
              assert.ok(
                box && box.x >= 0 && box.x + box.width <= width,
                `${screen.name} at ${width} px: "${name}" is off screen (${JSON.stringify(box)})`,
              );
            }
          }
          await browser.screenshot(`layout-${screen.name}-${width}`);

          for (const dialog of axe ? (screen.dialogs ?? []) : []) {
            await shell.press(dialog.button, true);
            const opened = await visible(shell.dialog());
            // Let the opening transition end, or axe measures half-transparent text.
            await shell.settled();
            assert.deepEqual(
              await seriousViolations(page),
              [],
              `${screen.name} dialog "${dialog.button}" at ${width} px`,
            );
            if (dialog.form) {
              // Sent empty, the form shows its errors: red text on white must read too.
              await opened.locator('button[type="submit"]').click();
              await visible(opened.locator('[aria-invalid="true"], .mantine-InputWrapper-error'));
              assert.deepEqual(
                await seriousViolations(page),
                [],
                `${screen.name} dialog "${dialog.button}" at ${width} px, showing its errors`,
              );
            }
            const box = await opened.boundingBox();
            assert.ok(
              box && box.x >= 0 && box.x + box.width <= width,
              `${screen.name} dialog "${dialog.button}" at ${width} px is off screen (${JSON.stringify(box)})`,
            );
            await browser.screenshot(`layout-${screen.name}-${dialog.name}-${width}`);
            await shell.confirm('Close');
            await shell.dialogsClosed();
          }
        }
      });
    }
  });
}
