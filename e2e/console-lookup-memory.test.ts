// "Why is this address blocked?" remembers: the bans of an address that have ended (banned when and
// by whom, lifted when and by whom), a whitelist entry's comment and end, and a malformed address
// refused in words under the field. At 1440 and 390 px, axe clean, asked by touch too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';
import { checkScreen } from './support/screen-check.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: the address lookup remembers', () => {
  const app = useConsole({ server: { adminPassword: 'lookup-memory-e2e-password' }, hasTouch: true });
  const { bans } = app.screens;
  const post = async (path: string, body: unknown) => {
    const answer = await app.server.call(`${V3}${path}`, { method: 'POST', body });
    assert.ok(answer.status < 300, `POST ${path}: ${answer.status} ${answer.text}`);
  };

  it('a lifted ban: "Nothing blocks" now, and the history says who banned it when and who lifted it', async () => {
    await post('firewall:banIp', { ip: '198.51.100.23', duration: 3600, reason: 'SIP scanner' });
    await post('firewall:unbanIp', { ip: '198.51.100.23' });
    await app.open('/bans');
    await bans.lookUp('198.51.100.23');
    const answer = await visible(bans.lookupAnswer('198.51.100.23'));
    assert.match(await answer.innerText(), /Nothing blocks 198\.51\.100\.23/);
    assert.match(await answer.innerText(), /Recent history of 198\.51\.100\.23/);
    const past = await answer.getByTestId('lookup-history').innerText();
    assert.match(past, /Manual ban/);
    assert.match(
      past,
      /banned \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+ by localhost · lifted \d{4}-\d\d-\d\d .* ago\) by localhost/,
    );
    assert.match(past, /SIP scanner/);
    await checkScreen(app.page, app.browser, 'lookup-history', () => visible(answer.getByTestId('lookup-history')));
  });

  it('a whitelist entry shows its comment and end; asked by touch', async () => {
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await post('firewall:unbanAndWhitelist', { ip: '203.0.113.50', comment: 'Branch office NAT', until });
    await bans.lookupField.fill('203.0.113.50');
    await app.page.getByRole('button', { name: 'Look up' }).tap();
    const answer = await visible(bans.lookupAnswer('203.0.113.50'));
    const protection = await bans.lookupProtection(answer).innerText();
    assert.match(
      protection,
      /^Whitelist 203\.0\.113\.50: Branch office NAT \(until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+\)$/,
    );
    await checkScreen(app.page, app.browser, 'lookup-whitelist-entry', () => visible(bans.lookupProtection(answer)));
  });

  it('a malformed address is refused in words under the field, with no answer beside it', async () => {
    await bans.lookUp('hello');
    const field = bans.lookupField;
    const described = await eventually(
      () => field.getAttribute('aria-describedby'),
      (id) => id !== null && id.includes('error'),
      'the field described by an error',
    );
    const id = described!.split(' ').find((each) => each.includes('error'))!;
    const message = await bans.byId(id).innerText();
    assert.equal(
      message,
      '"hello" is not an address: type one IPv4 or IPv6 address, e.g. 198.51.100.7 or 2001:db8::7.',
    );
    assert.equal(await bans.lookupAnswer().count(), 0);
    await checkScreen(app.page, app.browser, 'lookup-refused', () => visible(bans.byId(id)));
  });
});
