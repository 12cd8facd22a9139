// The audit log in sentences (issue 6/6 item 6): a ban import with its counts (its preview not
// logged), unban-and-whitelist, a whitelist entry, key details with form labels and local dates, and
// a refused write with its reason. At 1440 and 390 px, axe clean.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';
import { checkScreen } from './support/screen-check.ts';

const V3 = '/pbxcore/api/v3/';
const LOCAL_DATE = String.raw`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+`;

describe('console: the audit log in sentences', () => {
  const app = useConsole({ server: { adminPassword: 'audit-sentences-e2e-password' } });
  const { audit } = app.screens;
  const call = async (method: string, path: string, body: unknown) => {
    const answer = await app.server.call(`${V3}${path}`, { method, body });
    return answer;
  };
  const ok = async (method: string, path: string, body: unknown) => {
    const answer = await call(method, path, body);
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.json.data as Record<string, unknown>;
  };

  it('imports, unban-and-whitelist, whitelist entries, key details and refusals read as sentences', async () => {
    const list = { format: 'values', content: '203.0.113.9\n198.51.100.0/24\n', duration: '2h' };
    await ok('POST', 'firewall:importBans', { ...list, dryRun: true });
    await ok('POST', 'firewall:importBans', list);
    await ok('POST', 'firewall:banIp', { ip: '192.0.2.7', duration: 600 });
    await ok('POST', 'firewall:unbanAndWhitelist', { ip: '192.0.2.7', comment: 'Office NAT' });
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const fail2ban = await ok('GET', 'fail2ban', undefined);
    await ok('PATCH', 'fail2ban', {
      whitelistEntries: [
        ...(fail2ban.whitelistEntries as unknown[]),
        { value: '203.0.113.60', comment: 'Partner', until },
      ],
    });
    const key = await ok('POST', 'api-keys', {
      description: 'fw-audit',
      allowed_paths: {},
      networkfilterid: 'localhost',
    });
    await ok('PATCH', `api-keys/${key.id as number}`, { description: 'fw-audit', expires_at: until });
    const refused = await call('PATCH', 'fail2ban', { maxretry: 0 });
    assert.equal(refused.status, 422, refused.text);

    await app.open();
    await audit.show();
    await visible(audit.rows(/Imported a ban list/));
    const sentences = (await audit.rows().allInnerTexts()).join('\n');
    assert.match(sentences, /Imported a ban list \(values\): 2 added, 0 extended, 0 unchanged/);
    assert.equal(await audit.rows(/Imported a ban list/).count(), 1, 'the preview is not a change');
    assert.match(
      sentences,
      /Unbanned and whitelisted 192\.0\.2\.7 \('Office NAT', for good\); 1 ban lifted: 192\.0\.2\.7 \(manual\)/,
    );
    assert.match(
      sentences,
      new RegExp(String.raw`Whitelist entries: added 203\.0\.113\.60 \('Partner', until ${LOCAL_DATE}\)`),
    );
    assert.match(sentences, new RegExp(String.raw`Changed key #\d+: Expiry never → ${LOCAL_DATE}`));
    assert.doesNotMatch(sentences, /whitelistEntries|importBans|key_display|has_key|bouncer_setup|\d{4}-\d\d-\d\dT/);

    const created = await visible(audit.rows(/Created key 'fw-audit'/));
    const fields = await audit.changes(created);
    await eventually(
      () => fields.innerText(),
      (text) => /Allowed source\s+This computer only/.test(text) && /Key stored/.test(text) && !/has_key/.test(text),
      'the key fields with their form labels',
    );

    const refusal = await visible(audit.rows(/Changed ban rules \(refused, HTTP 422\)/));
    assert.match(await refusal.getByTestId('audit-refusal').innerText(), /^Refused: .*maxretry/);
    await checkScreen(app.page, app.browser, 'audit-sentences', () => visible(audit.rows(/Imported a ban list/)));
  });
});
