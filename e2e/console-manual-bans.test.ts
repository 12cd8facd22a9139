// Manual bans from the console, seen by a real crowdsec-custom-bouncer started with the configuration
// the key dialog gives (only its file paths changed): ban with a countdown and for good, lift early,
// a 1-minute ban left to run out, the history page, bulk unban, and one `add` per decision however
// many polls.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import { LOCALHOST_SOURCE } from './pages/api-keys.ts';
import { useConsole } from './support/console-session.ts';
import { startCustomBouncerWithConfig, type RunningBouncer } from './support/custom-bouncer.ts';
import { eventually, visible } from './support/page-helpers.ts';

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
  let bouncer: RunningBouncer | undefined;
  let bouncerStarted = 0;
  /** When the 1-minute ban ends, as the server lists it (epoch ms). */
  let expiringEndsAt = 0;
  /** The bouncer's `del` for the 1-minute ban, and when it was seen. */
  let expiredDel: Promise<{ line: string; at: number }> | undefined;

  const app = useConsole({ cleanup: async () => await bouncer?.stop(), openAt: '/api-keys' });
  const { apiKeys, bans, dashboard } = app.screens;

  it('the custom-bouncer preset gives a YAML that runs with the real bouncer, and a curl check that works', async () => {
    const { server, browser } = app;
    // The bouncer runs on this computer: the key is bound to it (there is no default source).
    const issued = await apiKeys.createKey({
      description: 'Custom bouncer on fw3',
      purpose: 'customBouncer',
      source: LOCALHOST_SOURCE,
    });
    const apiKey = await issued.value();
    assert.match(apiKey, /^[0-9a-f]{64}$/);
    const port = new URL(server.url).port;
    const apiUrl = `http://127.0.0.1:${port}/pbxcore/api/v3/firewall-bouncer/`;
    await issued.chooseAddress(apiUrl);
    await browser.screenshot('api-keys-custom-bouncer');

    const yaml = await issued.copy(
      'Copy custom bouncer configuration',
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

    await issued.tab('curl check').click();
    const curl = await issued.copy(
      'Copy curl check',
      (text) => text.startsWith('curl '),
      'the curl line on the clipboard',
    );
    assert.equal(curl, `curl -sS -H 'X-Api-Key: ${apiKey}' '${apiUrl}v1/decisions/stream?startup=true'`);
    // The line works as given (run asynchronously: the server answers from this same process).
    const { stdout } = await promisify(execFile)('sh', ['-c', curl], { encoding: 'utf8', timeout: 15_000 });
    const answer = JSON.parse(stdout) as { new: unknown; deleted: unknown };
    assert.ok('new' in answer && 'deleted' in answer, JSON.stringify(answer));
    await issued.close();

    bouncer = startCustomBouncerWithConfig(yaml);
    bouncerStarted = Date.now();
  });

  it('bans an address for 1 min and leaves it to run out (its end is checked in a later step)', async () => {
    const { server } = app;
    await bans.show();
    await bans.ban({ address: EXPIRING, duration: '1', unit: 'min', reason: 'Short trial ban' });
    await bans.see(`${EXPIRING} is banned for 1 min.`);

    const banned = (await server.call(`${V3}firewall:getBannedIps`)).json.data as Array<{
      ip: string;
      expiresAt: string;
    }>;
    const listed = banned.find((b) => b.ip === EXPIRING);
    assert.ok(listed, `the server lists the ban: ${JSON.stringify(banned)}`);
    expiringEndsAt = Date.parse(listed.expiresAt);
    const left = expiringEndsAt - Date.now();
    assert.ok(left > 50_000 && left <= 60_000, `it ends in a minute: ${listed.expiresAt}`);
    const row = await visible(bans.row(EXPIRING));
    assert.match(await row.innerText(), /Short trial ban/);
    assert.match(await bans.timeLeft(row).innerText(), /^(1 min 00 s|[1-5]?\d s)$/);

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
      const { server, browser } = app;
      await bans.show();
      const dialog = await bans.openBan();
      const ip = dialog.address;

      // Refusals are the server's, shown under the field they name.
      await dialog.submit();
      await dialog.see('Enter an address (192.0.2.7) or a network (192.0.2.0/24).');
      await ip.fill('127.0.0.1');
      await dialog.submit();
      await dialog.see(/covers this PBX's own loopback address/);
      assert.equal(await ip.getAttribute('aria-invalid'), 'true');
      await dialog.fill({ address: '198.51.100.23', duration: '0' });
      await dialog.submit();
      await dialog.see(/must be from 1 minute/i);
      assert.equal(await dialog.duration.getAttribute('aria-invalid'), 'true');
      assert.notEqual(await ip.getAttribute('aria-invalid'), 'true', 'the address field has no error any more');

      await dialog.fill({ duration: '30', unit: 'min', reason: 'Toll fraud attempts' });
      await browser.screenshot('bans-ban-dialog');
      await dialog.submit();
      await bans.dialogsClosed();
      await bans.see('198.51.100.23 is banned for 30 min.');

      const line = await bouncer!.waitForLine(/^add 198\.51\.100\.23 \d+ pbx\/manual /, POLLS);
      const seconds = Number(line.split(' ')[2]);
      assert.ok(seconds > 1700 && seconds <= 1800, `the bouncer is told the real time left: ${line}`);

      const row = await visible(bans.row('198.51.100.23'));
      const text = await row.innerText();
      assert.match(text, /Manual/i);
      assert.match(text, /Toll fraud attempts/);
      assert.match(text, /by localhost/);
      // When it ends, in the console's one format (24 h, local zone), and that it refuses every service.
      assert.match(await row.getByTestId('ban-until').innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+$/);
      assert.equal(await row.getByTestId('ban-refused-on').innerText(), 'All services');
      const countdown = bans.timeLeft(row);
      const first = await countdown.innerText();
      assert.match(first, /^(29|30) min \d\d s$/);
      await eventually(
        () => countdown.innerText(),
        (t) => t !== first,
        'the countdown to tick',
      );

      // For good, from SIP only: "Permanent" instead of a countdown.
      const again = await bans.openBan();
      await again.fill({ address: '192.0.2.0/24', unit: 'Permanent' });
      assert.equal(await again.duration.isDisabled(), true);
      await again.fill({ spare: ['Web (console and API)', 'AMI', 'IAX'] });
      await again.submit();
      await bans.see('192.0.2.0/24 is banned until you lift the ban.');
      const range = await visible(bans.row('192.0.2.0/24'));
      assert.equal(await bans.timeLeft(range).innerText(), 'Permanent');
      assert.equal(await range.getByTestId('ban-refused-on').innerText(), 'SIP');
      assert.equal(await range.getByTestId('ban-until').innerText(), 'Permanent');
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
      await dashboard.show();
      const manual = () => (Date.now() < expiringEndsAt ? 3 : 2);
      await eventually(
        () => dashboard.banCount('manual'),
        (t) => new RegExp(`\\b${manual()}\\b`).test(t),
        'the manual bans on the dashboard',
      );
      await dashboard.see('Bans started per minute');
      await bans.show();

      await bans.unban('198.51.100.23');
      await bans.row('198.51.100.23').waitFor({ state: 'detached' });
      await bouncer!.waitFor('del', '198.51.100.23', POLLS);
    },
  );

  it('the history page lists the ban and its early lift, filters by state, category and search, and pages on the server', async () => {
    const { server, browser, page } = app;
    // Thirty more bans, so the history has a second page.
    for (let i = 1; i <= 30; i++) {
      const made = await server.call(`${V3}firewall:banIp`, {
        method: 'POST',
        body: { ip: `203.0.113.${i}`, duration: '2h', reason: `Scanner ${i}` },
      });
      assert.equal(made.status, 201, made.text);
    }
    await bans.showHistory();
    assert.equal(new URL(page.url()).pathname, '/bans/history');

    // With the 1-minute ban, in force or not.
    await bans.see(/^1–25 of 33$/);
    await bans.press('Next');
    await bans.see(/^26–33 of 33$/);
    const lifted = await visible(bans.historyRow('198.51.100.23'));
    const text = await lifted.innerText();
    assert.match(text, /Manual/i);
    assert.match(text, /pbx\/manual/);
    assert.match(text, /Toll fraud attempts/);
    assert.match(text, /Lifted/i);
    assert.match(text, /localhost[\s\S]*localhost/, 'banned by and lifted by');
    await browser.screenshot('bans-history');

    // A filter starts again from the first page.
    await bans.choose('State', 'Lifted');
    await eventually(
      () => bans.historyRow().count(),
      (n) => n === 1,
      'only the lifted ban',
    );
    await bans.see(/^1–1 of 1$/);
    await bans.choose('State', 'Active');
    await bans.searchHistory('192.0.2');
    await eventually(
      () => bans.historyRow().allInnerTexts(),
      (rows) => rows.length === 1 && /192\.0\.2\.0\/24[\s\S]*Permanent[\s\S]*Active/i.test(rows[0]!),
      'the permanent range ban',
    );
    await bans.searchHistory('no such ban');
    await bans.see('No ban matches the filters');
    await bans.searchHistory('');
    await bans.choose('Category', 'SIP');
    await bans.see('No ban matches the filters');
  });

  it('bulk unban: ticked rows, then every row shown, are lifted after a confirmation and the bouncer gets del for each', async () => {
    const { server, browser, page } = app;
    // The bouncer has the scanners' bans first, so lifting them must reach it as del.
    for (const i of [1, 2, 30]) await bouncer!.waitFor('add', `203.0.113.${i}`, POLLS);
    await bans.showActive();
    assert.equal(await bans.unbanSelected.isDisabled(), true, 'nothing selected yet');
    await bans.select('203.0.113.1');
    await bans.select('203.0.113.2');
    await bans.press('Unban selected (2)');
    await visible(bans.dialog('Unban 2 addresses?'));
    await browser.screenshot('bans-bulk-unban');
    // Axe measures contrast once the opening transition has ended.
    await bans.settled();
    const violations = (await axeAudit(page).analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    assert.deepEqual(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`),
      [],
      'the table with ticked rows and the confirmation have no serious axe violation',
    );
    await bans.confirm('Unban 2 addresses', 'Unban 2 addresses?');
    await bans.dialogsClosed();
    await bans.see('2 addresses are no longer banned.');
    await bans.row(/203\.0\.113\.1\b/).waitFor({ state: 'detached' });
    await bouncer!.waitFor('del', '203.0.113.1', POLLS);
    await bouncer!.waitFor('del', '203.0.113.2', POLLS);

    // Every row the filter shows: the 28 scanners, not the permanent range.
    await bans.filterByIp('Scanner');
    await eventually(
      () => bans.row().count(),
      (n) => n === 28,
      'the 28 scanner bans',
    );
    await bans.select('all');
    await bans.press('Unban selected (28)');
    await bans.confirm('Unban 28 addresses', 'Unban 28 addresses?');
    await bans.see('No ban matches the filter');
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
      // The Bans table has been open since the bulk unban: it drops the row on its own refresh.
      await bans.filterByIp('');
      await visible(bans.row('192.0.2.0/24'));
      const refreshed = Math.max(0, expiringEndsAt - Date.now()) + POLL + 5_000;
      await bans.row(EXPIRING).waitFor({ state: 'detached', timeout: refreshed });
      assert.ok(Date.now() >= expiringEndsAt, 'the row stayed until the ban ended');

      const { line, at } = await expiredDel!;
      assert.ok(at >= expiringEndsAt - 1_000, `del came ${expiringEndsAt - at} ms before the ban's end: ${line}`);
      const calls = bouncer!.calls().map((c) => c.line);
      const added = calls.findIndex((c) => c.startsWith(`add ${EXPIRING} `));
      assert.ok(added >= 0 && added < calls.indexOf(line), `add before del:\n${calls.join('\n')}`);
      assert.match(calls[added]!, /^add 203\.0\.113\.61 \d+ pbx\/manual /);
      const seconds = Number(calls[added]!.split(' ')[2]);
      assert.ok(seconds > 0 && seconds <= 60, `the bouncer is told the time left of a 1-minute ban: ${calls[added]}`);

      await bans.showHistory();
      await bans.searchHistory(EXPIRING);
      const rows = await eventually(
        () => bans.historyRow().allInnerTexts(),
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
