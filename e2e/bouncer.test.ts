import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test, type TestContext } from 'node:test';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { REMOTE, startTestServer, type TestServer } from '../src-server/test-support/server.ts';

/**
 * The real CrowdSec client (`crowdsec-custom-bouncer`, Debian package) against this server. Its
 * bin_path script appends its arguments (`add <value> <seconds> <scenario> <json>`) to a file.
 */
const BOUNCER_BIN = process.env.PBX_E2E_CUSTOM_BOUNCER ?? '/usr/bin/crowdsec-custom-bouncer';
const STREAM = '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream';
const ADMIN_PASSWORD = 'bouncer-e2e-password';

interface Bouncer {
  /** Every script call so far, one line each: `add 203.0.113.0/24 31536000 pbx/manual {...}`. */
  calls(): string[];
  /** Resolves with the first call matching `pattern`; fails after `timeoutMs` or if the bouncer exits. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  log(): string;
  kill(): void;
}

function startBouncer(t: TestContext, apiUrl: string, apiKey: string): Bouncer {
  const dir = mkdtempSync(join(tmpdir(), 'pbx-custom-bouncer-'));
  const callsFile = join(dir, 'calls.log');
  const script = join(dir, 'record.sh');
  writeFileSync(callsFile, '');
  writeFileSync(script, `#!/bin/sh\necho "$@" >> "${callsFile}"\n`);
  chmodSync(script, 0o755);
  const config = join(dir, 'crowdsec-custom-bouncer.yaml');
  // Keys as in the package's /etc/crowdsec/bouncers/crowdsec-custom-bouncer.yaml.
  writeFileSync(
    config,
    [
      `bin_path: ${script}`,
      'feed_via_stdin: false',
      'total_retries: 0',
      'scenarios_containing: []',
      'scenarios_not_containing: []',
      'origins: []',
      `piddir: ${dir}`,
      'update_frequency: 1s',
      'cache_retention_duration: 10s',
      'daemonize: false',
      'log_mode: stdout',
      `log_dir: ${dir}`,
      'log_level: info',
      `api_url: ${apiUrl}`,
      `api_key: ${apiKey}`,
      'prometheus:',
      '  enabled: false',
      '  listen_addr: 127.0.0.1',
      '  listen_port: 60602',
      '',
    ].join('\n'),
  );
  let output = '';
  const child: ChildProcess = spawn(BOUNCER_BIN, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  t.after(() => {
    kill();
    rmSync(dir, { recursive: true, force: true });
  });
  const calls = () => readFileSync(callsFile, 'utf8').split('\n').filter(Boolean);
  return {
    calls,
    log: () => output,
    kill,
    async waitFor(pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = calls().find((line) => pattern.test(line));
        if (hit) return hit;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`No bouncer call matched ${pattern}. Calls:\n${calls().join('\n')}\nBouncer log:\n${output.slice(-3000)}`);
        }
        await sleep(100);
      }
    },
  };
}

/** The bouncer's first poll has ?startup=true and it never retries a failed start: wait for the export first. */
async function waitForExport(server: TestServer, key: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const response = await server.call(STREAM, { method: 'HEAD', headers: { 'X-Api-Key': key } }).catch(() => undefined);
    if (response?.status === 200) return;
    await sleep(100);
  }
  throw new Error('the bouncer export never answered');
}

describe('crowdsec-custom-bouncer against the decision stream', () => {
  let server: TestServer;
  let apiUrl: string;
  before(async () => {
    assert.ok(existsSync(BOUNCER_BIN), `${BOUNCER_BIN} is missing: apt-get install -y crowdsec-custom-bouncer`);
    server = await startTestServer({ adminPassword: ADMIN_PASSWORD });
    apiUrl = `${server.url}/pbxcore/api/v3/firewall-bouncer/`;
  });
  after(() => server.close());

  test('filter deny entries and failed-login bans reach the script as add, and their removal as del', async (t) => {
    const { key } = createTestApiKey(server.server.services.db, { description: 'custom bouncer e2e' });
    await waitForExport(server, key);
    const bouncer = startBouncer(t, apiUrl, key);

    const filter = await server.call('/pbxcore/api/v3/firewall', { method: 'POST', body: { permit: '192.0.2.0/24', deny: '203.0.113.0/24' } });
    assert.equal(filter.status, 201);
    const added = await bouncer.waitFor(/^add 203\.0\.113\.0\/24 /);
    assert.match(added, /^add 203\.0\.113\.0\/24 31536000 pbx\/manual /);
    assert.equal(JSON.parse(added.split(' ').slice(4).join(' ')).origin, 'pbx-networkfilters');

    // Real failed logins from 127.0.0.2 (another host as far as the server is concerned).
    assert.equal((await server.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { maxretry: 3 } })).status, 200);
    for (let i = 0; i < 3; i++) {
      const login = await server.remote('/pbxcore/api/v3/auth:login', { method: 'POST', body: { login: 'admin', password: `wrong-${i}` } });
      assert.equal(login.status, 401);
    }
    assert.equal((await server.remote('/pbxcore/api/v3/system:ping')).status, 403, 'the banned address is refused here too');
    const banned = await bouncer.waitFor(/^add 127\.0\.0\.2 /);
    assert.match(banned, /^add 127\.0\.0\.2 (600|59\d) pbx\/http /);

    assert.equal((await server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: REMOTE } })).status, 200);
    assert.match(await bouncer.waitFor(/^del 127\.0\.0\.2 /), /^del 127\.0\.0\.2 \d+ pbx\/http /);
    assert.equal((await server.remote('/pbxcore/api/v3/system:ping')).status, 200);

    assert.equal((await server.call(`/pbxcore/api/v3/firewall/${filter.json.data.id}`, { method: 'DELETE' })).status, 200);
    assert.match(await bouncer.waitFor(/^del 203\.0\.113\.0\/24 /), /^del 203\.0\.113\.0\/24 \d+ pbx\/manual /);
    assert.equal(bouncer.calls().filter((line) => line.startsWith('add 203.0.113.0/24 ')).length, 1, 'added once, not once per poll');
  });

  test('a large snapshot travels gzip-compressed (shared member plus per-key member) and the client reads it all', async (t) => {
    const { key } = createTestApiKey(server.server.services.db, { description: 'gzip e2e' });
    await waitForExport(server, key);
    const bouncer = startBouncer(t, apiUrl, key);
    const deny = Array.from({ length: 150 }, (_, i) => `198.19.0.${i + 1}`);
    const filter = await server.call('/pbxcore/api/v3/firewall', { method: 'POST', body: { permit: '192.0.2.0/24', deny: deny.join(',') } });
    assert.equal(filter.status, 201);
    // The answer is larger than the gzip threshold; the bouncer's Go client asks for gzip itself.
    const probe = await fetch(`${server.url}${STREAM}`, { headers: { 'X-Api-Key': createTestApiKey(server.server.services.db).key, 'Accept-Encoding': 'gzip' } });
    assert.equal(probe.headers.get('content-encoding'), 'gzip');
    await bouncer.waitFor(/^add 198\.19\.0\.150 /);
    const added = () => new Set(bouncer.calls().filter((l) => l.startsWith('add 198.19.0.')).map((l) => l.split(' ')[1]));
    assert.equal(added().size, 150);

    await server.call(`/pbxcore/api/v3/firewall/${filter.json.data.id}`, { method: 'PATCH', body: { deny: deny.slice(0, 140).join(',') } });
    for (const value of deny.slice(140)) await bouncer.waitFor(new RegExp(`^del ${value.replaceAll('.', '\\.')} `));
    const deleted = new Set(bouncer.calls().filter((l) => l.startsWith('del 198.19.0.')).map((l) => l.split(' ')[1]));
    assert.deepEqual([...deleted].sort(), deny.slice(140).sort());
    await server.call(`/pbxcore/api/v3/firewall/${filter.json.data.id}`, { method: 'DELETE' });
  });

  test('a key revoked mid-run stops the stream', async (t) => {
    const { id, key } = createTestApiKey(server.server.services.db, { description: 'revoked mid-run' });
    await server.call('/pbxcore/api/v3/firewall', { method: 'POST', body: { permit: '192.0.2.0/24', deny: '198.51.100.1' } });
    await waitForExport(server, key);
    const bouncer = startBouncer(t, apiUrl, key);
    await bouncer.waitFor(/^add 198\.51\.100\.1 /);

    const revoked = await server.call(`/pbxcore/api/v3/api-keys/${id}`, { method: 'DELETE' });
    assert.equal(revoked.status, 200, revoked.text);
    await server.call('/pbxcore/api/v3/firewall', { method: 'POST', body: { permit: '192.0.2.0/24', deny: '198.51.100.2' } });
    // Give the bouncer several of its 1 s polls: none may deliver the new entry.
    const deadline = Date.now() + 4000;
    while (Date.now() < deadline) {
      assert.ok(!bouncer.calls().some((line) => line.includes('198.51.100.2')), 'a revoked key received a decision');
      await sleep(200);
    }
    assert.match(bouncer.log(), /unknown or revoked API key/, 'the bouncer was told why');
  });
});
