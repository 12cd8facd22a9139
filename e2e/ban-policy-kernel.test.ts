// Issue 20 against the real crowdsec-firewall-bouncer (Debian package) in iptables mode, in a
// private network namespace: a 30-day ban is accepted by ipset at its 2147483 s cap and renewed by
// each poll, with no "too long" warning; and IPv6 failures counted by /64 become one Range decision
// that drops another address of that /64 in the kernel, while the next /64 is still served.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KernelBanResult } from './support/ban-policy-kernel-scenario.ts';
import { prepareFirewallBouncerSuite } from './support/firewall-bouncer.ts';
import { runInNetworkNamespace } from './support/netns.ts';

const SCENARIO = 'e2e/support/ban-policy-kernel-scenario.ts';
const IPSET_MAX = 2_147_483;

describe('ban policy in the kernel: capped long bans and IPv6 prefix bans', { timeout: 120_000 }, () => {
  before(() => prepareFirewallBouncerSuite(['/usr/sbin/iptables', '/usr/sbin/ip6tables', '/usr/sbin/ipset']));

  test('iptables mode', { timeout: 110_000 }, async (t) => {
    const run = await runInNetworkNamespace<KernelBanResult>(SCENARIO, [], 100_000);
    const r = run.result;
    assert.ok(
      r,
      `the scenario printed no result (exit ${run.exitCode}, timed out: ${run.timedOut}):\n${run.output.slice(-6000)}`,
    );
    const context = () =>
      `\n--- bouncer log ---\n${r.log.slice(-5000)}\n--- kernel ` +
      `---\n${r.kernel.slice(0, 5000)}\n--- output ---\n${run.output.slice(-3000)}`;
    t.diagnostic(
      `ipset timeouts ${JSON.stringify(r.ipsetTimeouts)}, long ban dropped after ` +
        `${r.longDropped?.elapsedMs} ms, fourth IPv6 address dropped after ` +
        `${r.fourthDropped?.elapsedMs} ms`,
    );
    assert.ok(!r.error, `the scenario failed: ${r.error}${context()}`);
    assert.equal(r.bouncerExitedEarly, false, `the bouncer stopped on its own${context()}`);

    // 30 days: listed with its real time, published at the cap, held by ipset at most at the cap and renewed.
    assert.ok(
      r.longSecondsLeft !== null && r.longSecondsLeft > 2_591_000,
      `the API lists the real 30 days: ${r.longSecondsLeft}`,
    );
    assert.deepEqual(r.longDecision, { duration: `${IPSET_MAX}s`, scope: 'Ip' });
    assert.ok(r.longDropped?.ok, `the 30-day ban was never enforced${context()}`);
    assert.equal(r.ipsetTimeouts.length, 2, `ipset holds the address${context()}`);
    for (const timeout of r.ipsetTimeouts)
      assert.ok(timeout <= IPSET_MAX && timeout > IPSET_MAX - 60, `ipset timeout ${timeout}${context()}`);
    assert.ok(
      r.ipsetTimeouts[1]! >= r.ipsetTimeouts[0]! - 1,
      `renewed by the polls, not counting down: ${JSON.stringify(r.ipsetTimeouts)}${context()}`,
    );

    // IPv6 by prefix: one /64 Range decision, enforced for an address that never failed.
    assert.deepEqual(r.prefixFailures, [401, 401, 401]);
    assert.deepEqual(r.prefixDecisions, [{ value: '2001:db8:1:2::/64', scope: 'Range', scenario: 'pbx/http' }]);
    assert.ok(r.fourthDropped?.ok, `2001:db8:1:2::d was never dropped${context()}`);
    assert.equal(
      r.otherPrefix?.status,
      200,
      `the next /64 is still served: ${JSON.stringify(r.otherPrefix)}${context()}`,
    );

    assert.deepEqual(r.problems, [], `the bouncer logged warnings or errors${context()}`);
  });
});
