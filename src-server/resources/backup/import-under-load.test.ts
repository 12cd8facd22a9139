import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, before, test } from 'node:test';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { bigBackup, pollRaw } from '../../test-support/backup-load.ts';
import { STREAM } from '../../test-support/bouncer.ts';
import { request } from '../../test-support/http.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';
import { waitUntil } from '../../test-support/wait.ts';

const V3 = '/pbxcore/api/v3';
const FILTERS = 10_000;
const BOUNCERS = 20;
const POLL_EVERY_MS = 500;

let t: TestServer;
before(async () => {
  // A 10,000-filter file is about 1.7 MB: the operator raises the body limit for it.
  t = await startTestServer({ bodyLimitBytes: 8 * 1024 * 1024 });
});
after(() => t.close());

test(
  'a 10,000-filter import, dry run then real, while 20 bouncers poll every 0.5 s: every poll ' +
    'answered, polls answered while the import runs, the server stays up',
  async () => {
    const exported = (await t.call(`${V3}/backup:exportConfig`)).json.data as Record<string, unknown>;
    const config = bigBackup(exported, FILTERS);
    const keys = Array.from(
      { length: BOUNCERS },
      (_, i) => createTestApiKey(t.server.services.db, { description: `bouncer ${i}` }).key,
    );

    // How many polls each bouncer had answered, and how many were answered while an import was in
    // flight. The figures (import times, slowest polls) are bench/config-import.ts's.
    let importing = false;
    let done = false;
    const answered = keys.map(() => 0);
    let answeredDuringImports = 0;
    const failures: string[] = [];
    const bouncer = async (key: string, index: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (!done) {
        try {
          const status = await pollRaw(`${t.url}${STREAM}`, key, agent);
          if (status !== 200) failures.push(`bouncer ${index}: ${status}`);
        } catch (error) {
          failures.push(`bouncer ${index}: ${String(error)}`);
        }
        answered[index]!++;
        if (importing) answeredDuringImports++;
        await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
      }
      agent.destroy();
    };
    const fleet = keys.map((key, i) => bouncer(key, i));
    const everyBouncerAnswered = async (what: string) => {
      const before = [...answered];
      await waitUntil(what, () => answered.every((n, i) => n > before[i]!));
    };

    await everyBouncerAnswered('the fleet is polling before the import starts');
    importing = true;
    const dry = await t.call(`${V3}/backup:importConfig`, { method: 'POST', body: { config, dryRun: true } });
    importing = false;
    assert.equal(dry.status, 200, dry.text.slice(0, 500));
    assert.equal(dry.json.data.sections.networkFilters.added.length, FILTERS);
    assert.equal((await t.call(`${V3}/firewall?limit=1`)).json.pagination.total, 0, 'a dry run writes nothing');

    importing = true;
    const real = await t.call(`${V3}/backup:importConfig`, { method: 'POST', body: { config } });
    importing = false;
    assert.equal(real.status, 200, real.text.slice(0, 500));
    await everyBouncerAnswered('every bouncer polls again after the import, served the new snapshot');
    done = true;
    await Promise.all(fleet);

    assert.deepEqual(failures, [], 'every poll was answered 200');
    assert.ok(answeredDuringImports > 0, 'polls are answered while the imports run, not only after them');
    assert.equal((await t.call(`${V3}/firewall?limit=1`)).json.pagination.total, FILTERS);
    assert.equal((await t.call(`${V3}/system:ping`)).status, 200, 'the server is still up');
    // The published set follows: the 5,000 deny entries reach the bouncers.
    const stream = await request(`${t.url}${STREAM}?startup=true`, { headers: { 'X-Api-Key': keys[0]! } });
    assert.equal(stream.json.new.length, FILTERS / 2);
  },
);
