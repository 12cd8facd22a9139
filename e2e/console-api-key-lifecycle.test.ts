// API key lifecycle in the console, seen by the real crowdsec-custom-bouncer: disable (its polls get
// 401), enable (served again, the cursor kept), rotate (the old value refused, the new one served),
// and an expiry that passes (the stream stops).
import assert from 'node:assert/strict';
import { axeAudit } from './support/axe.ts';
import { before, describe, it } from 'node:test';
import { Form } from './pages/form.ts';
import { useConsole } from './support/console-session.ts';
import { createBouncerKeyInConsole } from './support/bouncer-key-dialog.ts';
import { startCustomBouncer, type RunningBouncer } from './support/custom-bouncer.ts';
import { eventually, transitionsEnded, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';
const DESCRIPTION = 'Bouncer on fw3';

interface Rejection {
  ip: string;
  reason: string;
  count: number;
}

describe('console: disable, enable, rotate and expire a bouncer key', () => {
  let bouncer: RunningBouncer | undefined;
  let apiKey = '';
  let apiUrl = '';
  const app = useConsole({ cleanup: async () => await bouncer?.stop() });
  const { apiKeys } = app.screens;

  before(() => {
    apiUrl = `${app.server.url}/pbxcore/api/v3/firewall-bouncer/`;
  });

  /** The server's record of the bouncer host's refused polls (firewall:getBouncerStatus). */
  const refusal = async () => {
    const status = await app.server.call(`${V3}firewall:getBouncerStatus`);
    return (status.json.data.rejections as Rejection[]).find((r) => r.ip === '127.0.0.1');
  };
  /** Waits until the bouncer's polls have been refused at least twice with a reason matching `reason`. */
  const pollsRefused = (reason: RegExp, what: string) =>
    eventually(refusal, (r) => r !== undefined && reason.test(r.reason) && r.count >= 2, what, 20_000);
  /** Waits for three more refused polls than stored now (the count is flushed each second, so it may lag one): each would have carried a change made before it. */
  const refusedTwiceMore = async (what: string) => {
    const before = (await refusal())?.count ?? 0;
    await eventually(refusal, (r) => (r?.count ?? 0) >= before + 3, what, 20_000);
  };
  const block = async (network: string) => {
    const made = await app.server.call(`${V3}firewall`, {
      method: 'POST',
      body: { permit: network, deny: network, description: 'lifecycle e2e' },
    });
    assert.equal(made.status, 201, made.text);
    return made.json.data.id as number;
  };
  const rowAction = (name: string) => apiKeys.action(DESCRIPTION, name);
  /** No serious or critical axe violation on the page as it is (open dialogs included). */
  const accessible = async (what: string) => {
    // Let a dialog's opening transition end: half-faded text would be measured as low contrast.
    await transitionsEnded(app.page);
    const violations = (await axeAudit(app.page).analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    assert.deepEqual(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
      what,
    );
  };
  const status = () => apiKeys.status(DESCRIPTION);

  it('disable: the bouncer polls get 401 "this API key is disabled"; enable: served again, with what it missed', async () => {
    const { server, browser, page } = app;
    await app.open();
    ({ apiKey } = await createBouncerKeyInConsole(page, {
      description: DESCRIPTION,
      backend: 'iptables',
      bouncerHostIp: '127.0.0.1',
    }));
    await eventually(
      () => status(),
      (t) => t === 'Active',
      'the Active badge',
    );

    const first = await block('203.0.113.0/24');
    bouncer = startCustomBouncer(apiUrl, apiKey);
    await bouncer.waitFor('add', '203.0.113.0/24');

    await rowAction('Disable…');
    await visible(apiKeys.dialog(`Disable “${DESCRIPTION}”?`));
    await apiKeys.confirm('Disable key', `Disable “${DESCRIPTION}”?`);
    await eventually(
      () => status(),
      (t) => t === 'Disabled',
      'the Disabled badge',
    );
    await browser.screenshot('api-keys-disabled');
    await accessible('the table with a Disabled key');
    const refused = await pollsRefused(/this API key is disabled/i, 'the bouncer polls to be refused as disabled');
    assert.match(refused?.reason ?? '', /disabled/);

    // While disabled, a lifted block does not reach the bouncer; once enabled it does (its cursor stayed).
    assert.equal((await server.call(`${V3}firewall/${first}`, { method: 'DELETE' })).status, 200);
    await refusedTwiceMore('two more polls refused after the lift');
    assert.equal(bouncer.calls().filter((c) => c.action === 'del').length, 0, 'nothing served to a disabled key');

    await rowAction('Enable');
    await eventually(
      () => status(),
      (t) => t === 'Active',
      'the Active badge again',
    );
    await bouncer.waitFor('del', '203.0.113.0/24');
    assert.equal(await refusal(), undefined, 'the refusal is over once the key is served again');
  });

  it('rotate: the new value is shown once with its configuration; the old one is refused, the new one served', async () => {
    const { browser, page } = app;
    await rowAction('Rotate…');
    await visible(apiKeys.dialog(`Rotate “${DESCRIPTION}”?`));
    await apiKeys.confirm('Rotate key', `Rotate “${DESCRIPTION}”?`);
    const issued = await apiKeys.issued();
    const rotated = await issued.value();
    assert.match(rotated, /^[0-9a-f]{64}$/);
    assert.notEqual(rotated, apiKey);
    await issued.see('crowdsec-firewall-bouncer configuration (iptables mode)');
    await issued.tab('Custom bouncer').click();
    await issued.see(`api_key: ${rotated}`);
    await issued.close();
    assert.ok(!(await page.content()).includes(rotated), 'the new value is gone from the page');

    // The running bouncer still has the old value: refused as an unknown key.
    await pollsRefused(/unknown or revoked API key/, 'the old value to be refused');
    await block('198.51.100.0/24');
    await refusedTwiceMore('two more polls of the old value refused after the block');
    assert.ok(!bouncer!.calls().some((c) => c.value === '198.51.100.0/24'), 'the old value is served nothing');
    await bouncer!.stop();

    bouncer = startCustomBouncer(apiUrl, rotated);
    await bouncer.waitFor('add', '198.51.100.0/24');
    apiKey = rotated;

    // The details show where the key was used from.
    await rowAction('Details');
    await visible(apiKeys.usedFrom('127.0.0.1'));
    await browser.screenshot('api-key-details');
    await accessible('the Details dialog');
    await page.keyboard.press('Escape');
    await apiKeys.dialogsClosed();
  });

  it('an expiry that passes stops the stream: the polls get 401 "expired" and the key shows Expired', async () => {
    const { server, browser, page } = app;
    await rowAction('Edit…');
    const dialog = new Form(apiKeys, await visible(apiKeys.dialog(`Edit “${DESCRIPTION}”`)));
    // The page and the server share this machine's clock and time zone: 12 s from now, local time.
    // (A string, so the page runs it as written: no helper names from the TypeScript transform.)
    const expiry = await page.evaluate<string>(`(() => {
      const d = new Date(Date.now() + 12000);
      const p = (n) => String(n).padStart(2, '0');
      const day = d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate());
      return day + 'T' + p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds());
    })()`);
    await accessible('the Edit dialog');
    await dialog.fill({ Expires: expiry });
    await dialog.save('Save changes');
    await apiKeys.dialogsClosed();
    const record = (
      (await server.call(`${V3}api-keys`)).json.data as Array<{ description: string; expires_at: string | null }>
    ).find((k) => k.description === DESCRIPTION);
    assert.ok(record?.expires_at, 'the expiry was saved');
    const expiresAt = Date.parse(record.expires_at);
    assert.ok(Math.abs(expiresAt - (Date.now() + 12_000)) < 10_000, `expiry ${record.expires_at} is about 12 s away`);
    await visible(apiKeys.expiry(DESCRIPTION).filter({ hasNotText: 'Never' }));

    await block('192.0.2.0/24');
    await bouncer!.waitFor('add', '192.0.2.0/24');
    assert.ok(Date.now() < expiresAt, 'the bouncer was served before the expiry');
    const refused = await pollsRefused(/expired at/, 'the bouncer polls to be refused as expired');
    assert.ok(Date.now() >= expiresAt);
    assert.match(refused?.reason ?? '', /expired/);
    await eventually(
      () => status(),
      (t) => t === 'Expired',
      'the Expired badge',
    );
    await browser.screenshot('api-keys-expired');
  });
});
