// Registered phones are never cut off (issue 3/6, item 6), against the real crowdsec-firewall-bouncer
// in iptables mode in a private network namespace: an office address hosting two registered phones
// (fed by the AMI double) keeps reaching the server through the kernel firewall while an account
// behind it keeps failing, and a failing unregistered neighbour is dropped.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { PhoneKernelResult } from './support/phone-protection-kernel-scenario.ts';
import { prepareFirewallBouncerSuite } from './support/firewall-bouncer.ts';
import { runInNetworkNamespace } from './support/netns.ts';

const SCENARIO = 'e2e/support/phone-protection-kernel-scenario.ts';

describe(
  'registered phones in the kernel: the office stays reachable, the neighbour is dropped',
  { timeout: 120_000 },
  () => {
    before(() => prepareFirewallBouncerSuite(['/usr/sbin/iptables', '/usr/sbin/ipset']));

    test('iptables mode', { timeout: 110_000 }, async (t) => {
      const run = await runInNetworkNamespace<PhoneKernelResult>(SCENARIO, [], 100_000);
      const r = run.result;
      assert.ok(
        r,
        `the scenario printed no result (exit ${run.exitCode}, timed out: ${run.timedOut}):\n${run.output.slice(-6000)}`,
      );
      const context = () =>
        `\n--- bouncer log ---\n${r.log.slice(-5000)}\n--- kernel ` +
        `---\n${r.kernel.slice(0, 5000)}\n--- output ---\n${run.output.slice(-3000)}`;
      t.diagnostic(`neighbour dropped after ${r.neighbourDropped?.elapsedMs} ms`);
      assert.ok(!r.error, `the scenario failed: ${r.error}${context()}`);
      assert.equal(r.bouncerExitedEarly, false, `the bouncer stopped on its own${context()}`);
      assert.equal(r.officeProtected, true, 'the AMI contacts protected the office before anything failed');

      assert.deepEqual(r.officeLogins, [401, 401, 401], 'the failed logins from the office were refused, not dropped');
      assert.ok(r.neighbourDropped?.ok, `the failing neighbour was never dropped${context()}`);
      for (const p of r.officeAfter)
        assert.equal(
          p.status,
          200,
          `the office was not served once the neighbour was dropped: ${JSON.stringify(p)}${context()}`,
        );
      assert.deepEqual(r.decisions, ['198.51.100.11'], 'only the neighbour is in the stream');
      assert.deepEqual(
        r.flags,
        [
          'Account 102 fails from 198.51.100.10, where 101 and 103 are registered',
          'Attempts naming no account fail from 198.51.100.10, where 101 and 103 are registered',
        ].sort(),
      );
      assert.deepEqual(r.problems, [], `the bouncer logged warnings or errors${context()}`);
    });
  },
);
