import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from './clock.ts';
import { createTestApiKey, BOUNCER_PATHS } from './test-support/api-keys.ts';
import { poll } from './test-support/bouncer.ts';
import { captureLogs } from './test-support/captured-logs.ts';
import { startTestServer } from './test-support/server.ts';
import { listenUrls, RefusalWarnings, REPEAT_WARNING_MS } from './terminal-log.ts';

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
const V3 = '/pbxcore/api/v3';
const WARN = 40;
const INFO = 30;

describe('terminal log', () => {
  it('lists one URL per local address when the server listens on all of them', () => {
    assert.deepEqual(listenUrls('127.0.0.1', 8088), ['http://127.0.0.1:8088']);
    assert.deepEqual(listenUrls('::1', 8088), ['http://[::1]:8088']);
    const all = listenUrls('0.0.0.0', 8088);
    assert.ok(all.includes('http://127.0.0.1:8088'), all.join(' '));
    assert.ok(
      all.every((url) => /^http:\/\/\d+\.\d+\.\d+\.\d+:8088$/.test(url)),
      all.join(' '),
    );
  });

  it('warns once per refused key and source per 10 minutes, then sums up the repeats', async () => {
    const { logger, lines } = captureLogs<Line>();
    const clock = new ManualClock();
    const warnings = new RefusalWarnings(logger, clock, (id) => (id === 3 ? 'edge firewall' : undefined));
    const refusal = {
      kind: 'rejected-key' as const,
      status: 401,
      reason: 'this API key is disabled',
      address: '192.0.2.7',
      method: 'GET',
      path: '/x',
      keyId: 3,
    };
    for (let i = 0; i < 30; i++) {
      warnings.report(refusal);
      clock.advance(10_000);
    }
    warnings.report({
      kind: 'failed-login',
      status: 401,
      reason: 'wrong password',
      address: '192.0.2.8',
      method: 'POST',
      path: '/login',
      login: 'admin',
    });
    await settle();
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg]),
      [
        [WARN, 'API key refused'],
        [WARN, 'failed login'],
      ],
    );
    clock.advance(REPEAT_WARNING_MS);
    warnings.report(refusal);
    await settle();
    assert.equal(lines.length, 3);
    assert.equal(lines[2]!.repeatedSinceLastLine, 29);
    assert.equal(lines[0]!.key, 'edge firewall', 'the key by its name, not its number alone');
  });

  it('writes one line per request at debug, without its query string', async () => {
    const { logger, lines } = captureLogs<Line>('debug');
    const t = await startTestServer({ logger, logLevel: 'debug' });
    try {
      const before = lines.length;
      await t.call(`${V3}/system:getInfo?secret=abc`);
      await settle();
      const requests = lines.slice(before).filter((l) => l.msg === 'request');
      assert.equal(requests.length, 1);
      assert.equal(requests[0]!.level, 20);
      assert.equal(requests[0]!.path, `${V3}/system:getInfo`);
      assert.doesNotMatch(JSON.stringify(requests[0]), /secret/);
    } finally {
      await t.close();
    }
  });

  it(
    '10 minutes of one bouncer and one open dashboard write under 50 lines at the default ' +
      'level, and the events still show',
    async (context) => {
      const clock = new ManualClock();
      const { logger, lines } = captureLogs<Line>();
      const t = await startTestServer({ clock, logger, logLevel: 'info' });
      const { key } = createTestApiKey(t.server.services.db, {
        description: 'edge firewall',
        allowedPaths: BOUNCER_PATHS,
      });
      await poll(t, key, '?startup=true');
      // The dashboard's polls, by their intervals in src-renderer (5 s, 10 s, 30 s, 60 s); the bouncer polls every 10 s.
      const every = (seconds: number, paths: string[]) => ({ seconds, paths });
      const schedule = [
        every(5, ['ami:getStatus', 'firewall:getBouncerStatus']),
        every(10, ['firewall:getBannedIps']),
        every(30, ['system:getInfo']),
        every(60, ['firewall:getBanHistory?minutes=60']),
      ];
      let requests = 0;
      for (let second = 5; second <= 600; second += 5) {
        clock.advance(5_000);
        if (second % 10 === 0) await poll(t, key);
        for (const { seconds, paths } of schedule) {
          if (second % seconds) continue;
          for (const path of paths) {
            const response = await t.call(`${V3}/${path}`);
            assert.equal(response.status, 200, `${path}: ${response.text}`);
            requests += 1;
          }
        }
      }
      await settle();
      const quietLines = lines.length;
      assert.ok(requests >= 300, `${requests} requests`);
      context.diagnostic(`${requests} requests and ${60} bouncer polls in 10 simulated minutes: ${quietLines} lines`);
      assert.ok(quietLines < 50, `${quietLines} lines:\n${lines.map((l) => l.msg).join('\n')}`);
      const start = lines.find((l) => String(l.msg).startsWith('server listening on'));
      assert.ok(start, 'a start line');
      assert.deepEqual(start.urls, [t.url]);

      // The events a technician must see are there, at their level.
      const ban = await t.call(`${V3}/firewall:banIp`, {
        method: 'POST',
        body: { ip: '198.51.100.99', reason: 'test' },
      });
      assert.equal(ban.status, 201, ban.text);
      const unban = await t.call(`${V3}/firewall:unbanIp`, { method: 'POST', body: { ip: '198.51.100.99' } });
      assert.equal(unban.status, 200, unban.text);
      const settings = await t.call(`${V3}/general-settings`, { method: 'PATCH', body: { auditRetentionDays: 30 } });
      assert.equal(settings.status, 200, settings.text);
      const refused = await t.call('/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream', {
        headers: { 'X-Api-Key': 'f'.repeat(64) },
      });
      assert.equal(refused.status, 401);
      await t.close();
      await settle();
      const events = lines.slice(quietLines).map((l) => `${l.level} ${l.msg}`);
      assert.ok(events.includes(`${INFO} banned 198.51.100.99`), events.join('\n'));
      assert.ok(events.includes(`${INFO} ban lifted: 198.51.100.99`), events.join('\n'));
      assert.ok(events.includes(`${WARN} API key refused`), events.join('\n'));
      assert.ok(events.includes(`${INFO} configuration changed: general-settings`), events.join('\n'));
      assert.equal(events.at(-1), `${INFO} server stopped`);
    },
  );
});
