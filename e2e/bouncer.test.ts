import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test, type TestContext } from 'node:test';
import { REPEAT_POLLS } from '../src-server/firewall/export/index.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { REMOTE, startTestServer, type TestServer } from '../src-server/test-support/server.ts';
import { waitUntil } from '../src-server/test-support/wait.ts';
import { CUSTOM_BOUNCER, startCustomBouncer, type RunningBouncer } from './support/custom-bouncer.ts';

/**
 * The real CrowdSec client (`crowdsec-custom-bouncer`, Debian package) against this server. Its
 * bin_path script appends its arguments (`add <value> <seconds> <scenario> <json>`) to a file.
 */
const STREAM = '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream';
const ADMIN_PASSWORD = 'bouncer-e2e-password';

/** The real bouncer for one test, stopped when the test ends. */
function startBouncer(t: TestContext, apiUrl: string, apiKey: string): RunningBouncer {
  const bouncer = startCustomBouncer(apiUrl, apiKey);
  t.after(() => bouncer.stop());
  return bouncer;
}

/** The bouncer's first poll has ?startup=true and it never retries a failed start: wait for the export first. */
async function waitForExport(server: TestServer, key: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const response = await server
      .call(STREAM, { method: 'HEAD', headers: { 'X-Api-Key': key } })
      .catch(() => undefined);
    if (response?.status === 200) return;
    await sleep(100);
  }
  throw new Error('the bouncer export never answered');
}

/** How many polls the server has counted for the key described `description` (flushed every second). */
async function pollsOf(server: TestServer, description: string): Promise<number> {
  const status = await server.call('/pbxcore/api/v3/firewall:getBouncerStatus');
  const bouncers = status.json.data.bouncers as { description: string; polls: number }[];
  return bouncers.find((b) => b.description === description)?.polls ?? 0;
}

describe('crowdsec-custom-bouncer against the decision stream', () => {
  let server: TestServer;
  let apiUrl: string;
  before(async () => {
    assert.ok(existsSync(CUSTOM_BOUNCER), `${CUSTOM_BOUNCER} is missing: apt-get install -y crowdsec-custom-bouncer`);
    server = await startTestServer({ adminPassword: ADMIN_PASSWORD });
    apiUrl = `${server.url}/pbxcore/api/v3/firewall-bouncer/`;
  });
  after(() => server.close());

  test('filter deny entries and failed-login bans reach the script as add, and their removal as del', async (t) => {
    const { key } = createTestApiKey(server.server.services.db, { description: 'custom bouncer e2e' });
    await waitForExport(server, key);
    const bouncer = startBouncer(t, apiUrl, key);

    const filter = await server.call('/pbxcore/api/v3/firewall', {
      method: 'POST',
      body: { permit: '192.0.2.0/24', deny: '203.0.113.0/24' },
    });
    assert.equal(filter.status, 201);
    const added = await bouncer.waitForLine(/^add 203\.0\.113\.0\/24 /);
    assert.match(added, /^add 203\.0\.113\.0\/24 2145600 pbx\/manual /);
    assert.equal(JSON.parse(added.split(' ').slice(4).join(' ')).origin, 'pbx-networkfilters');

    // Real failed logins from 127.0.0.2 (another host as far as the server is concerned).
    assert.equal(
      (await server.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { maxretry: 3 } })).status,
      200,
    );
    for (let i = 0; i < 3; i++) {
      const login = await server.remote('/pbxcore/api/v3/auth:login', {
        method: 'POST',
        body: { login: 'admin', password: `wrong-${i}` },
      });
      assert.equal(login.status, 401);
    }
    assert.equal(
      (await server.remote('/pbxcore/api/v3/system:ping')).status,
      403,
      'the banned address is refused here too',
    );
    const banned = await bouncer.waitForLine(/^add 127\.0\.0\.2 /);
    assert.match(banned, /^add 127\.0\.0\.2 (600|59\d) pbx\/http /);

    assert.equal(
      (await server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: REMOTE } })).status,
      200,
    );
    assert.match(
      await bouncer.waitForLine(/^del 127\.0\.0\.2 /),
      /^del 127\.0\.0\.2 0 pbx\/http /,
      'a deletion carries nothing left',
    );
    assert.equal((await server.remote('/pbxcore/api/v3/system:ping')).status, 200);

    assert.equal(
      (await server.call(`/pbxcore/api/v3/firewall/${filter.json.data.id}`, { method: 'DELETE' })).status,
      200,
    );
    assert.match(await bouncer.waitForLine(/^del 203\.0\.113\.0\/24 /), /^del 203\.0\.113\.0\/24 0 pbx\/manual /);

    // A manual ban with a chosen duration: added with its time left, deleted with 0 (docs/firewall.md).
    assert.equal(
      (
        await server.call('/pbxcore/api/v3/firewall:banIp', {
          method: 'POST',
          body: { ip: '198.51.100.66', duration: 3600 },
        })
      ).status,
      201,
    );
    assert.match(
      await bouncer.waitForLine(/^add 198\.51\.100\.66 /),
      /^add 198\.51\.100\.66 (3600|35\d\d) pbx\/manual /,
    );
    assert.equal(
      (await server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '198.51.100.66' } })).status,
      200,
    );
    assert.match(await bouncer.waitForLine(/^del 198\.51\.100\.66 /), /^del 198\.51\.100\.66 0 pbx\/manual /);
    assert.equal(
      bouncer.calls().filter(({ line }) => line.startsWith('add 203.0.113.0/24 ')).length,
      1,
      'added once, not once per poll',
    );

    // Deletions are repeated on the next REPEAT_POLLS answers, and an entry added and removed
    // between two polls is deleted without ever being received: neither makes the client warn,
    // nor disturbs an add in the same answers.
    const ghost = await server.call('/pbxcore/api/v3/firewall', {
      method: 'POST',
      body: { permit: '192.0.2.0/24', deny: '198.51.100.44' },
    });
    assert.equal(
      (await server.call(`/pbxcore/api/v3/firewall/${ghost.json.data.id}`, { method: 'DELETE' })).status,
      200,
    );
    const late = await server.call('/pbxcore/api/v3/firewall', {
      method: 'POST',
      body: { permit: '192.0.2.0/24', deny: '198.51.100.33' },
    });
    assert.equal(late.status, 201);
    assert.match(await bouncer.waitForLine(/^add 198\.51\.100\.33 /), /^add 198\.51\.100\.33 2145600 pbx\/manual /);
    // Every answer that repeats the deletions has been served once the key has polled REPEAT_POLLS + 2 more times
    // (counted by the server, not by the clock).
    const served = await pollsOf(server, 'custom bouncer e2e');
    await waitUntil(
      'the deletions repeated over every window',
      async () => (await pollsOf(server, 'custom bouncer e2e')) >= served + REPEAT_POLLS + 2,
    );
    const dels = (value: string) => bouncer.calls().filter((c) => c.action === 'del' && c.value === value).length;
    assert.ok(
      dels('203.0.113.0/24') >= 1 && dels('203.0.113.0/24') <= REPEAT_POLLS,
      `del called ${dels('203.0.113.0/24')} times`,
    );
    t.diagnostic(
      `the script got del 203.0.113.0/24 ${dels('203.0.113.0/24')} time(s) and del of the ` +
        `never-received 198.51.100.44 ${dels('198.51.100.44')} time(s)`,
    );
    assert.ok(
      !bouncer.calls().some((c) => c.action === 'add' && c.value === '198.51.100.44'),
      'the ghost entry was never received',
    );
    assert.deepEqual(
      bouncer
        .log()
        .split('\n')
        .filter((line) => /level=(warning|error|fatal)/.test(line)),
      [],
      'the client logged no warning',
    );
    assert.equal(dels('198.51.100.33'), 0, 'the add in the same answers stands');
  });

  test('a large snapshot travels gzip-compressed (shared member plus per-key member) and the client reads it all', async (t) => {
    const { key } = createTestApiKey(server.server.services.db, { description: 'gzip e2e' });
    await waitForExport(server, key);
    const bouncer = startBouncer(t, apiUrl, key);
    const deny = Array.from({ length: 150 }, (_, i) => `198.19.0.${i + 1}`);
    const filter = await server.call('/pbxcore/api/v3/firewall', {
      method: 'POST',
      body: { permit: '192.0.2.0/24', deny: deny.join(',') },
    });
    assert.equal(filter.status, 201);
    // The answer is larger than the gzip threshold; the bouncer's Go client asks for gzip itself.
    const probe = await fetch(`${server.url}${STREAM}`, {
      headers: { 'X-Api-Key': createTestApiKey(server.server.services.db).key, 'Accept-Encoding': 'gzip' },
    });
    assert.equal(probe.headers.get('content-encoding'), 'gzip');
    // Decisions come in the snapshot's order (by chunk), not the filter's: wait for each one.
    for (const value of deny) await bouncer.waitForLine(new RegExp(`^add ${value.replaceAll('.', '\\.')} `));
    const added = () =>
      new Set(
        bouncer
          .calls()
          .filter((c) => c.action === 'add' && c.value.startsWith('198.19.0.'))
          .map((c) => c.value),
      );
    assert.equal(added().size, 150);

    await server.call(`/pbxcore/api/v3/firewall/${filter.json.data.id}`, {
      method: 'PATCH',
      body: { deny: deny.slice(0, 140).join(',') },
    });
    for (const value of deny.slice(140)) await bouncer.waitForLine(new RegExp(`^del ${value.replaceAll('.', '\\.')} `));
    const deleted = new Set(
      bouncer
        .calls()
        .filter((c) => c.action === 'del' && c.value.startsWith('198.19.0.'))
        .map((c) => c.value),
    );
    assert.deepEqual([...deleted].sort(), deny.slice(140).sort());
    await server.call(`/pbxcore/api/v3/firewall/${filter.json.data.id}`, { method: 'DELETE' });
  });

  test('a key revoked mid-run stops the stream', async (t) => {
    const { id, key } = createTestApiKey(server.server.services.db, { description: 'revoked mid-run' });
    await server.call('/pbxcore/api/v3/firewall', {
      method: 'POST',
      body: { permit: '192.0.2.0/24', deny: '198.51.100.1' },
    });
    await waitForExport(server, key);
    const bouncer = startBouncer(t, apiUrl, key);
    await bouncer.waitForLine(/^add 198\.51\.100\.1 /);

    const revoked = await server.call(`/pbxcore/api/v3/api-keys/${id}`, { method: 'DELETE' });
    assert.equal(revoked.status, 200, revoked.text);
    await server.call('/pbxcore/api/v3/firewall', {
      method: 'POST',
      body: { permit: '192.0.2.0/24', deny: '198.51.100.2' },
    });
    // Give the bouncer several of its 1 s polls: none may deliver the new entry.
    const deadline = Date.now() + 4000;
    while (Date.now() < deadline) {
      assert.ok(!bouncer.calls().some((c) => c.value === '198.51.100.2'), 'a revoked key received a decision');
      await sleep(200);
    }
    assert.match(bouncer.log(), /unknown or revoked API key/, 'the bouncer was told why');
  });
});
