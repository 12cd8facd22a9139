// The plain_text blocklist feed as a router consumes it without any CrowdSec software: curl with the
// key as the Basic password, `ipset restore` into a kernel set behind an iptables DROP rule, in a
// private network namespace. Real packets from a listed address are dropped and pass again once the
// ban is lifted and the feed fetched again.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { FeedScenarioResult } from './support/blocklist-kernel-scenario.ts';
import { isDropped, isServed } from './support/kernel-probe.ts';
import { requireNetworkNamespace, runInNetworkNamespace } from './support/netns.ts';

const SCENARIO = 'e2e/support/blocklist-kernel-scenario.ts';

describe('blocklist feed enforced by a router script in the kernel', { timeout: 90_000 }, () => {
  before(() => requireNetworkNamespace(['/usr/sbin/iptables', '/usr/sbin/ipset', '/usr/bin/curl']));

  test(
    'ipset restore from the plain_text feed drops listed senders until the ban is lifted',
    { timeout: 80_000 },
    async () => {
      const run = await runInNetworkNamespace<FeedScenarioResult>(SCENARIO, [], 75_000);
      const r = run.result;
      assert.ok(
        r,
        `the scenario printed no result (exit ${run.exitCode}, timed out: ${run.timedOut}):\n${run.output.slice(-6000)}`,
      );
      const context = () =>
        `\n--- set while banned ---\n${r.setWhileBanned}\n--- set after ` +
        `---\n${r.setAfterUnban}\n--- output ---\n${run.output.slice(-3000)}`;
      assert.ok(!r.error, `the scenario failed: ${r.error}${context()}`);
      assert.ok(r.baseline.every(isServed), `before the feed, every sender is served: ${JSON.stringify(r.baseline)}`);

      assert.match(r.runs[0]!, /^loaded 2 entries$/, `the first fetch loads the ban and the network${context()}`);
      assert.match(r.setWhileBanned, /^198\.51\.100\.7$/m);
      assert.match(r.setWhileBanned, /^203\.0\.113\.0\/24$/m);
      assert.ok(
        isDropped(r.whileBanned.banned),
        `the banned sender is dropped by the kernel: ${JSON.stringify(r.whileBanned.banned)}${context()}`,
      );
      assert.ok(
        isDropped(r.whileBanned.insideNetwork),
        `a sender inside the blocked network is dropped: ${JSON.stringify(r.whileBanned.insideNetwork)}`,
      );
      assert.ok(isServed(r.whileBanned.clean), `a clean sender is served: ${JSON.stringify(r.whileBanned.clean)}`);
      assert.equal(r.runs[1], 'unchanged', 'an unchanged feed answers 304 to If-None-Match');

      assert.match(r.runs[2]!, /^loaded 1 entries$/, `after the unban the feed holds only the network${context()}`);
      assert.doesNotMatch(r.setAfterUnban, /^198\.51\.100\.7$/m);
      assert.ok(
        isServed(r.afterUnban.banned),
        `the unbanned sender passes again: ${JSON.stringify(r.afterUnban.banned)}${context()}`,
      );
      assert.ok(isDropped(r.afterUnban.insideNetwork), 'the network stays blocked');
      assert.equal(r.otherSourceStatus, 403, "the key's network binding refuses other sources");
    },
  );
});
