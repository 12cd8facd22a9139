// Manual bans from the console, seen by a real crowdsec-custom-bouncer started with the configuration
// the key dialog gives (only its file paths changed): ban with a countdown and for good, lift early,
// a 1-minute ban left to run out, the history page, bulk unban, and one `add` per decision however
// many polls.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { startCustomBouncerWithConfig, type RunningBouncer } from './support/custom-bouncer.ts';
import { eventually, openScreen, readClipboard, visible, chooseOption } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
/** The preset polls every 10 s: a decision reaches the bouncer within two polls. */
const POLLS = 30_000;
/** The preset's update_frequency. */
const POLL = 10_000;
/**
 * Banned for the shortest duration the console allows (1 min) in the second step and left to run
 * out; its end is checked in a late step, so the minute passes while the steps between run.
 */
const EXPIRING = '203.0.113.61';

describe('console: manual bans, history and bulk unban with the custom-bouncer preset', () => {
  let server: TestServer;
  let browser: ConsoleBrowser;
  let bouncer: RunningBouncer | undefined;
  let bouncerStarted = 0;
  /** When the 1-minute ban ends, as the server lists it (epoch ms). */
  let expiringEndsAt = 0;
  /** The bouncer's `del` for the 1-minute ban, and when it was seen. */
  let expiredDel: Promise<{ line: string; at: number }> | undefined;

  before(async () => {
    server = await startConsoleServer({ adminPassword: 'e2e-admin-password' });
    browser = await launchConsoleBrowser();
  });

  after(async () => {
    await bouncer?.stop();
    await browser?.close();
    await server?.close();
  });

  it('the custom-bouncer preset gives a YAML that runs with the real bouncer, and a curl check that works', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await openScreen(page, 'API keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'New API key' }));
    await dialog.getByLabel('Description').fill('Custom bouncer on fw3');
    await dialog.getByRole('radio', { name: 'crowdsec-custom-bouncer (your script)' }).check();
    // The bouncer runs on this computer: the key is bound to it (there is no default source).
    await chooseOption(
      page,
      dialog.getByRole('combobox', { name: 'Allowed source' }),
      'This computer only (localhost)',
    );
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const issued = await visible(page.getByTestId('issued-key'));
    const apiKey = (await issued.locator('code').first().innerText()).trim();
    assert.match(apiKey, /^[0-9a-f]{64}$/);
    const address = issued.getByRole('combobox', { name: 'Address the bouncer host reaches this server on' });
    const port = new URL(server.url).port;
    const apiUrl = `http://127.0.0.1:${port}/pbxcore/api/v3/firewall-bouncer/`;
    await address.click();
    await page.getByRole('option', { name: apiUrl }).click();
    await browser.screenshot('api-keys-custom-bouncer');

    await issued.getByRole('button', { name: 'Copy custom bouncer configuration' }).click();
    const yaml = await eventually(
      () => readClipboard(page),
      (text) => text.includes('bin_path:'),
      'the custom bouncer YAML on the clipboard',
    );
    assert.match(yaml, new RegExp(`^api_key: ${apiKey}$`, 'm'));
    assert.match(yaml, new RegExp(`^api_url: ${apiUrl.replaceAll('.', '\\.')}$`, 'm'));
    assert.match(yaml, /^update_frequency: 10s$/m);
    // Far longer than a poll, with the reason said where the operator reads it.
    assert.match(yaml, /^cache_retention_duration: 1h$/m);
    assert.match(yaml, /^# Far above update_frequency, the script runs once per ban, not on\n# every poll/m);
    assert.match(yaml, /^insecure_skip_verify: false$/m);

    await issued.getByText('curl check', { exact: true }).click();
    await issued.getByRole('button', { name: 'Copy curl check' }).click();
    const curl = await eventually(
      () => readClipboard(page),
      (text) => text.startsWith('curl '),
      'the curl line on the clipboard',
    );
    assert.equal(curl, `curl -sS -H 'X-Api-Key: ${apiKey}' '${apiUrl}v1/decisions/stream?startup=true'`);
    // The line works as given (run asynchronously: the server answers from this same process).
    const { stdout } = await promisify(execFile)('sh', ['-c', curl], { encoding: 'utf8', timeout: 15_000 });
    const answer = JSON.parse(stdout) as { new: unknown; deleted: unknown };
    assert.ok('new' in answer && 'deleted' in answer, JSON.stringify(answer));
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    bouncer = startCustomBouncerWithConfig(yaml);
    bouncerStarted = Date.now();
  });

  it('bans an address for 1 min and leaves it to run out (its end is checked in a later step)', async () => {
    const { page } = browser;
    await openScreen(page, 'Bans');
    await page.getByRole('button', { name: 'Ban an address' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Ban an address' }));
    await dialog.getByLabel('Address or network').fill(EXPIRING);
    await dialog.getByLabel('Duration', { exact: true }).fill('1');
    await dialog.getByLabel('Unit of duration').selectOption('min');
    await dialog.getByLabel('Reason (optional)').fill('Short trial ban');
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await visible(page.getByText(`${EXPIRING} is banned for 1 min.`));

    const banned = (await server.call(`${V3}firewall:getBannedIps`)).json.data as Array<{
      ip: string;
      expiresAt: string;
    }>;
    const listed = banned.find((b) => b.ip === EXPIRING);
    assert.ok(listed, `the server lists the ban: ${JSON.stringify(banned)}`);
    expiringEndsAt = Date.parse(listed.expiresAt);
    const left = expiringEndsAt - Date.now();
    assert.ok(left > 50_000 && left <= 60_000, `it ends in a minute: ${listed.expiresAt}`);
    const row = await visible(page.getByTestId('ban-row').filter({ hasText: EXPIRING }));
    assert.match(await row.innerText(), /Short trial ban/);
    assert.match(await row.getByTestId('ban-time-left').innerText(), /^(1 min 00 s|[1-5]?\d s)$/);

    // Watched from now, so the time the bouncer is told to remove it is known to within a read of its
    // calls: due at the first poll after the end, within two polls. Awaited in the later step.
    const deadline = expiringEndsAt + 2 * POLL + 5_000;
    const watch = bouncer!
      .waitForLine(/^del 203\.0\.113\.61 /, deadline - Date.now())
      .then((line) => ({ line, at: Date.now() }));
    watch.catch(() => undefined);
    expiredDel = watch;
  });

  it(
    'bans an address for 30 min: the bouncer gets add with its seconds as pbx/manual, the Bans ' +
      'table counts down, lifting it early sends del',
    async () => {
      const { page } = browser;
      await openScreen(page, 'Bans');
      await page.getByRole('button', { name: 'Ban an address' }).click();
      const dialog = await visible(page.getByRole('dialog', { name: 'Ban an address' }));
      const ip = dialog.getByLabel('Address or network');

      // Refusals are the server's, shown under the field they name.
      await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
      await visible(dialog.getByText('Enter an address (192.0.2.7) or a network (192.0.2.0/24).'));
      await ip.fill('127.0.0.1');
      await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
      await visible(dialog.getByText(/covers this PBX's own loopback address/));
      assert.equal(await ip.getAttribute('aria-invalid'), 'true');
      await ip.fill('198.51.100.23');
      await dialog.getByLabel('Duration', { exact: true }).fill('0');
      await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
      await visible(dialog.getByText(/must be from 1 minute/i));
      assert.equal(await dialog.getByLabel('Duration', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.notEqual(await ip.getAttribute('aria-invalid'), 'true', 'the address field has no error any more');

      await dialog.getByLabel('Duration', { exact: true }).fill('30');
      await dialog.getByLabel('Unit of duration').selectOption('min');
      await dialog.getByLabel('Reason (optional)').fill('Toll fraud attempts');
      await browser.screenshot('bans-ban-dialog');
      await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await visible(page.getByText('198.51.100.23 is banned for 30 min.'));

      const line = await bouncer!.waitForLine(/^add 198\.51\.100\.23 \d+ pbx\/manual /, POLLS);
      const seconds = Number(line.split(' ')[2]);
      assert.ok(seconds > 1700 && seconds <= 1800, `the bouncer is told the real time left: ${line}`);

      const row = await visible(page.getByTestId('ban-row').filter({ hasText: '198.51.100.23' }));
      const text = await row.innerText();
      assert.match(text, /Manual/i);
      assert.match(text, /Toll fraud attempts/);
      assert.match(text, /by localhost/);
      const countdown = row.getByTestId('ban-time-left');
      const first = await countdown.innerText();
      assert.match(first, /^(29|30) min \d\d s$/);
      await eventually(
        () => countdown.innerText(),
        (t) => t !== first,
        'the countdown to tick',
      );

      // For good, from SIP only: "Permanent" instead of a countdown.
      await page.getByRole('button', { name: 'Ban an address' }).click();
      const again = await visible(page.getByRole('dialog', { name: 'Ban an address' }));
      await again.getByLabel('Address or network').fill('192.0.2.0/24');
      await again.getByLabel('Unit of duration').selectOption('Permanent');
      assert.equal(await again.getByLabel('Duration', { exact: true }).isDisabled(), true);
      for (const service of ['Web (console and API)', 'AMI', 'IAX'])
        await again.getByLabel(service, { exact: true }).uncheck();
      await again.getByRole('button', { name: 'Ban', exact: true }).click();
      await visible(page.getByText('192.0.2.0/24 is banned until you lift the ban.'));
      const range = await visible(page.getByTestId('ban-row').filter({ hasText: '192.0.2.0/24' }));
      assert.equal(await range.getByTestId('ban-time-left').innerText(), 'Permanent');
      assert.match(await range.innerText(), /Refused on SIP/);
      const banned = (await server.call(`${V3}firewall:getBannedIps`)).json.data as Array<{
        ip: string;
        permanent: boolean;
        services: string[] | null;
      }>;
      assert.deepEqual(banned.find((b) => b.ip === '192.0.2.0/24')?.services, ['SIP']);
      await bouncer!.waitForLine(/^add 192\.0\.2\.0\/24 \d+ pbx\/manual /, POLLS);
      await browser.screenshot('bans-manual');

      // The dashboard counts manual bans and charts the bans started per minute: these two, and the
      // 1-minute ban while it is in force (this step usually gets here well within its minute).
      await openScreen(page, 'Dashboard');
      const manual = () => (Date.now() < expiringEndsAt ? 3 : 2);
      await eventually(
        () => page.getByTestId('ban-count-manual').innerText(),
        (t) => new RegExp(`\\b${manual()}\\b`).test(t),
        'the manual bans on the dashboard',
      );
      await visible(page.getByText('Bans started per minute'));
      await openScreen(page, 'Bans');

      await page
        .getByTestId('ban-row')
        .filter({ hasText: '198.51.100.23' })
        .getByRole('button', { name: 'Unban 198.51.100.23' })
        .click();
      await page.getByRole('dialog').getByRole('button', { name: 'Unban' }).click();
      await page.getByTestId('ban-row').filter({ hasText: '198.51.100.23' }).waitFor({ state: 'detached' });
      await bouncer!.waitFor('del', '198.51.100.23', POLLS);
    },
  );

  it('the history page lists the ban and its early lift, filters by state, category and search, and pages on the server', async () => {
    const { page } = browser;
    // Thirty more bans, so the history has a second page.
    for (let i = 1; i <= 30; i++) {
      const made = await server.call(`${V3}firewall:banIp`, {
        method: 'POST',
        body: { ip: `203.0.113.${i}`, duration: '2h', reason: `Scanner ${i}` },
      });
      assert.equal(made.status, 201, made.text);
    }
    await page.getByRole('link', { name: 'Ban history' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Ban history' }));
    assert.equal(new URL(page.url()).pathname, '/bans/history');

    // With the 1-minute ban, in force or not.
    await visible(page.getByText(/^1–25 of 33$/));
    await page.getByRole('button', { name: 'Next' }).click();
    await visible(page.getByText(/^26–33 of 33$/));
    const lifted = await visible(page.getByTestId('ban-log-row').filter({ hasText: '198.51.100.23' }));
    const text = await lifted.innerText();
    assert.match(text, /Manual/i);
    assert.match(text, /pbx\/manual/);
    assert.match(text, /Toll fraud attempts/);
    assert.match(text, /Lifted/i);
    assert.match(text, /localhost[\s\S]*localhost/, 'banned by and lifted by');
    await browser.screenshot('bans-history');

    // A filter starts again from the first page.
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Lifted' }).click();
    await eventually(
      () => page.getByTestId('ban-log-row').count(),
      (n) => n === 1,
      'only the lifted ban',
    );
    await visible(page.getByText(/^1–1 of 1$/));
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Active' }).click();
    await page.getByLabel('Search').fill('192.0.2');
    await eventually(
      () => page.getByTestId('ban-log-row').allInnerTexts(),
      (rows) => rows.length === 1 && /192\.0\.2\.0\/24[\s\S]*Permanent[\s\S]*Active/i.test(rows[0]!),
      'the permanent range ban',
    );
    await page.getByLabel('Search').fill('no such ban');
    await visible(page.getByText('No ban matches the filters'));
    await page.getByLabel('Search').fill('');
    await page.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'SIP' }).click();
    await visible(page.getByText('No ban matches the filters'));
  });

  it('bulk unban: ticked rows, then every row shown, are lifted after a confirmation and the bouncer gets del for each', async () => {
    const { page } = browser;
    // The bouncer has the scanners' bans first, so lifting them must reach it as del.
    for (const i of [1, 2, 30]) await bouncer!.waitFor('add', `203.0.113.${i}`, POLLS);
    await page.getByRole('link', { name: 'Active bans' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Bans' }));
    const unbanSelected = page.getByRole('button', { name: /^Unban selected/ });
    assert.equal(await unbanSelected.isDisabled(), true, 'nothing selected yet');
    await page.getByRole('checkbox', { name: 'Select 203.0.113.1', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Select 203.0.113.2', exact: true }).check();
    await page.getByRole('button', { name: 'Unban selected (2)' }).click();
    const confirm = await visible(page.getByRole('dialog', { name: 'Unban 2 addresses?' }));
    await browser.screenshot('bans-bulk-unban');
    // Axe measures contrast once the opening transition has ended (the e2e tsconfig has no DOM types).
    const opacity = () =>
      page
        .locator('.mantine-Modal-content')
        .evaluate(
          (element) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(element)
              .opacity,
        );
    await eventually(opacity, (value) => value === '1', 'the confirmation fully shown');
    const violations = (await new AxeBuilder({ page }).analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    assert.deepEqual(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`),
      [],
      'the table with ticked rows and the confirmation have no serious axe violation',
    );
    await confirm.getByRole('button', { name: 'Unban 2 addresses' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await visible(page.getByText('2 addresses are no longer banned.'));
    await page
      .getByTestId('ban-row')
      .filter({ hasText: /203\.0\.113\.1\b/ })
      .waitFor({ state: 'detached' });
    await bouncer!.waitFor('del', '203.0.113.1', POLLS);
    await bouncer!.waitFor('del', '203.0.113.2', POLLS);

    // Every row the filter shows: the 28 scanners, not the permanent range.
    await page.getByLabel('Filter by IP address').fill('Scanner');
    await eventually(
      () => page.getByTestId('ban-row').count(),
      (n) => n === 28,
      'the 28 scanner bans',
    );
    await page.getByRole('checkbox', { name: 'Select all bans shown' }).check();
    await page.getByRole('button', { name: 'Unban selected (28)' }).click();
    await page
      .getByRole('dialog', { name: 'Unban 28 addresses?' })
      .getByRole('button', { name: 'Unban 28 addresses' })
      .click();
    await visible(page.getByText('No ban matches the filter'));
    const left = ((await server.call(`${V3}firewall:getBannedIps`)).json.data as Array<{ ip: string }>).map(
      (b) => b.ip,
    );
    // The 1-minute ban was not shown, so not lifted: listed until its minute is up (its own step
    // checks that it ran out rather than being lifted).
    assert.deepEqual(
      left.filter((ip) => ip !== EXPIRING),
      ['192.0.2.0/24'],
    );
    for (let i = 3; i <= 30; i++) await bouncer!.waitFor('del', `203.0.113.${i}`, POLLS);
  });

  it(
    'the 1-minute ban runs out by itself: the bouncer gets del after its end, the Bans table ' +
      'drops it, the history says Expired',
    async () => {
      const { page } = browser;
      // The Bans table has been open since the bulk unban: it drops the row on its own refresh.
      await page.getByLabel('Filter by IP address').fill('');
      await visible(page.getByTestId('ban-row').filter({ hasText: '192.0.2.0/24' }));
      const refreshed = Math.max(0, expiringEndsAt - Date.now()) + POLL + 5_000;
      await page
        .getByTestId('ban-row')
        .filter({ hasText: EXPIRING })
        .waitFor({ state: 'detached', timeout: refreshed });
      assert.ok(Date.now() >= expiringEndsAt, 'the row stayed until the ban ended');

      const { line, at } = await expiredDel!;
      assert.ok(at >= expiringEndsAt - 1_000, `del came ${expiringEndsAt - at} ms before the ban's end: ${line}`);
      const calls = bouncer!.calls().map((c) => c.line);
      const added = calls.findIndex((c) => c.startsWith(`add ${EXPIRING} `));
      assert.ok(added >= 0 && added < calls.indexOf(line), `add before del:\n${calls.join('\n')}`);
      assert.match(calls[added]!, /^add 203\.0\.113\.61 \d+ pbx\/manual /);
      const seconds = Number(calls[added]!.split(' ')[2]);
      assert.ok(seconds > 0 && seconds <= 60, `the bouncer is told the time left of a 1-minute ban: ${calls[added]}`);

      await page.getByRole('link', { name: 'Ban history' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Ban history' }));
      await page.getByLabel('Search').fill(EXPIRING);
      const rows = await eventually(
        () => page.getByTestId('ban-log-row').allInnerTexts(),
        (texts) => texts.length === 1 && texts[0]!.startsWith(EXPIRING) && /Expired/i.test(texts[0]!),
        'the 1-minute ban alone, shown as expired',
      );
      const text = rows[0]!;
      assert.match(text, /Short trial ban/);
      assert.match(text, /pbx\/manual/);
      assert.doesNotMatch(text, /Lifted|Active/i);
      assert.match(text, /localhost\s+—\s*$/, 'banned by localhost, lifted by nobody');
    },
  );

  it('the custom bouncer ran its script once per decision across its polls', async () => {
    // At least five polls of 10 s since the bouncer started.
    const wait = bouncerStarted + 55_000 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const calls = bouncer!.calls();
    const adds = new Map<string, number>();
    for (const call of calls) if (call.action === 'add') adds.set(call.value, (adds.get(call.value) ?? 0) + 1);
    assert.equal(adds.size, 33, `33 decisions added: ${[...adds.keys()].join(' ')}`);
    const repeated = [...adds].filter(([, n]) => n !== 1);
    assert.deepEqual(
      repeated,
      [],
      `each decision added once, not on every poll:\n${calls.map((c) => c.line.slice(0, 60)).join('\n')}`,
    );
    assert.equal(calls.filter((c) => c.action === 'del').length, 32, 'one del per lifted or expired ban');
  });
});
