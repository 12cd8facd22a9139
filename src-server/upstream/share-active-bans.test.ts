import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeLapi, type FakeLapi } from '../test-support/fake-lapi.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';

const V3 = '/pbxcore/api/v3/';

/** The values of the alerts the LAPI received, in order. */
const alertValues = (lapi: FakeLapi): string[] =>
  lapi.requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/alerts')
    .flatMap((r) => (JSON.parse(r.body) as Array<{ decisions: Array<{ value: string }> }>).flatMap((a) => a.decisions))
    .map((d) => d.value);

describe(
  'crowdsec-link:shareActiveBans: linking shares the bans in force, once, with progress',
  { timeout: 60_000 },
  () => {
    let lapi: FakeLapi;
    let pbx: TestServer;
    const post = (path: string, body: unknown) => pbx.call(`${V3}${path}`, { method: 'POST', body });
    const share = async (dryRun: boolean) => {
      const answer = await post('crowdsec-link:shareActiveBans', { dryRun });
      assert.equal(answer.status, 200, answer.text);
      return answer.json.data as { dryRun: boolean; queued: number; alreadyShared: number };
    };
    const status = async () => (await pbx.call(`${V3}crowdsec-link:getStatus`)).json.data;

    before(async () => {
      lapi = await startFakeLapi();
      pbx = await startTestServer();
      // Bans in force before the link exists: the pusher never saw them made.
      for (const ip of ['198.51.100.1', '198.51.100.2', '203.0.113.0/24'])
        assert.equal((await post('firewall:banIp', { ip, duration: 3600, reason: 'before the link' })).status, 201);
    });
    after(async () => {
      await pbx?.close();
      await lapi?.close();
    });

    test('refused while pushing is off (422 naming pushEnabled); a dry run still counts', async () => {
      const refused = await post('crowdsec-link:shareActiveBans', {});
      assert.equal(refused.status, 422, refused.text);
      assert.match(refused.json.messages.error.join(' '), /^pushEnabled: /);
      assert.deepEqual(await share(true), { dryRun: true, queued: 3, alreadyShared: 0 });
      assert.equal((await status()).share, null, 'nothing shared yet');
    });

    test('linked: nothing of what was in force went up; the offer counts it; sharing queues it once and the LAPI gets it', async () => {
      const saved = await pbx.call(`${V3}crowdsec-link`, {
        method: 'PUT',
        body: {
          enabled: true,
          url: lapi.url,
          pushEnabled: true,
          machineLogin: 'pbx',
          machinePassword: 'machine-password-1',
          shareManual: true,
          pullEnabled: false,
        },
      });
      assert.equal(saved.status, 200, saved.text);
      await lapi.waitFor(() => lapi.requests.some((r) => r.path === '/v1/watchers/login'), 'the login');
      assert.deepEqual(alertValues(lapi), [], 'linking alone pushes none of the bans in force');

      assert.deepEqual(await share(true), { dryRun: true, queued: 3, alreadyShared: 0 });
      assert.deepEqual(await share(false), { dryRun: false, queued: 3, alreadyShared: 0 });
      assert.deepEqual(await share(false), { dryRun: false, queued: 0, alreadyShared: 3 }, 'a second run adds nothing');
      await lapi.waitFor(() => alertValues(lapi).length >= 3, 'the three bans pushed', 20_000);
      assert.deepEqual(alertValues(lapi).sort(), ['198.51.100.1', '198.51.100.2', '203.0.113.0/24']);

      const progress = (await status()).share;
      assert.equal(progress.queued, 3);
      assert.equal(progress.sent, 3);
      assert.equal(progress.waiting, 0);
      assert.ok(Date.parse(progress.at) > 0);
    });

    test('a ban made after linking goes up by itself and is not offered again', async () => {
      assert.equal((await post('firewall:banIp', { ip: '192.0.2.9', duration: 600 })).status, 201);
      await lapi.waitFor(() => alertValues(lapi).includes('192.0.2.9'), 'the new ban pushed');
      assert.deepEqual(await share(true), { dryRun: true, queued: 0, alreadyShared: 4 });
      assert.equal(alertValues(lapi).filter((v) => v === '198.51.100.1').length, 1, 'each ban sent once');
    });

    test('the real runs are in the audit log with their counts; the previews are not', async () => {
      const entries = (await pbx.call(`${V3}audit-log?resource=crowdsec-link`)).json.data as Array<{
        operation: string;
        status: number;
        diff: Array<{ field: string; after: unknown }>;
      }>;
      const shares = entries.filter((e) => e.operation === 'shareActiveBans');
      assert.deepEqual(
        shares.map((e) => [e.status, e.diff.find((c) => c.field === 'sharedBans')?.after ?? null]),
        [
          [200, { queued: 0, alreadyShared: 3 }],
          [200, { queued: 3, alreadyShared: 0 }],
          [422, null],
        ],
      );
    });
  },
);
