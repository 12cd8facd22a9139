// The real crowdsec-firewall-bouncer (Debian package), configured with what the console's key
// dialog hands out, enforcing this server's decisions in the kernel: in a private network namespace,
// curl from blocked senders gets no answer at all, and lifting a block lets traffic back in within
// two polls. One namespace per firewall backend.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { CHROMIUM } from './support/browser.ts';
import type { Check, ScenarioResult } from './support/firewall-bouncer-scenario.ts';
import { prepareFirewallBouncerSuite } from './support/firewall-bouncer.ts';
import type { Probe } from './support/kernel-probe.ts';
import { runInNetworkNamespace } from './support/netns.ts';
import { REPEAT_POLLS } from '../src-server/firewall/export/index.ts';

const SCENARIO = 'e2e/support/firewall-bouncer-scenario.ts';
/**
 * Polls after a block or a lift by which the kernel must have changed: the change rides the first
 * answer after it; the probe that sees it may start one poll later; one more of slack for the
 * bouncer's apply. Counted in polls, not milliseconds: a loaded machine is slow for its own reasons.
 */
const WITHIN_POLLS = 3;

const CHECKS: Record<Check, string> = {
  ip: 'a blocked address (filter deny 198.51.100.7)',
  network: 'an address inside a blocked network (203.0.113.77 in 203.0.113.0/24)',
  ban: 'an intrusion-banned address (198.51.100.9)',
};
const dropped = (p: Probe | undefined) => p?.status === null && p.curlExit === 28;

describe('crowdsec-firewall-bouncer enforces the decision stream in the kernel', { timeout: 260_000 }, () => {
  before(() => prepareFirewallBouncerSuite(['/usr/sbin/nft', '/usr/sbin/iptables', '/usr/sbin/ipset', CHROMIUM]));

  for (const mode of ['nftables', 'iptables'] as const) {
    test(`${mode} mode`, { timeout: 125_000 }, async (t) => {
      const run = await runInNetworkNamespace<ScenarioResult>(SCENARIO, [mode], 120_000);
      const r = run.result;
      assert.ok(
        r,
        `the scenario printed no result (exit ${run.exitCode}, signal ${run.signal}, timed out: ` +
          `${run.timedOut}):\n${run.output.slice(-6000)}`,
      );
      const context = () =>
        `\n--- bouncer log ---\n${r.log.slice(-6000)}\n--- kernel while blocked ` +
        `---\n${r.kernelWhileBlocked.slice(0, 6000)}\n--- kernel after ` +
        `---\n${r.kernelAfter.slice(0, 3000)}\n--- scenario output ---\n${run.output.slice(-3000)}`;
      t.diagnostic(
        `${mode}: blocked after ${JSON.stringify(Object.fromEntries(Object.entries(r.blocked).map(([k, w]) => [k, w.elapsedMs])))} ms, ` +
          `unblocked after ` +
          `${JSON.stringify(Object.fromEntries(Object.entries(r.unblocked).map(([k, w]) => [k, w.elapsedMs])))} ` +
          `ms (ran at update_frequency ${r.runIntervalSeconds}s; the dialog's is ${r.updateFrequencySeconds}s)`,
      );
      assert.ok(!r.error, `the scenario failed: ${r.error}${context()}`);

      // The configuration under test is the dialog's, for this backend.
      assert.match(r.yaml, new RegExp(`^mode: ${mode}$`, 'm'));
      assert.match(
        r.yaml,
        /^api_url: http:\/\/192\.0\.2\.10:\d+\/pbxcore\/api\/v3\/firewall-bouncer\/$/m,
        'api_url is the host typed in the dialog, with the trailing slash',
      );
      assert.ok(
        r.updateFrequencySeconds >= 5 && r.updateFrequencySeconds <= 10,
        `update_frequency ${r.updateFrequencySeconds}s is outside the 5-10 s the SPEC recommends`,
      );
      assert.equal(
        r.expandRanges,
        mode === 'nftables',
        'an nftables key has the server expand ranges; an iptables key does not',
      );
      assert.equal(r.bouncerExitedEarly, false, `the bouncer stopped on its own${context()}`);

      assert.deepEqual(r.intrusion.slice(0, 2), [401, 401], 'the failed logins were refused');
      assert.equal(r.intrusion[2], 403, 'the server banned the intruder after maxretry failures');
      for (const check of Object.keys(CHECKS) as Check[]) {
        const waited = r.blocked[check];
        assert.ok(
          waited?.ok,
          `${mode}: ${CHECKS[check]} was never dropped by the kernel (last probe ${JSON.stringify(waited?.last)})${context()}`,
        );
        const polls = waited.markAtAccept! - r.pollsAtBlock[check]!;
        assert.ok(
          polls <= WITHIN_POLLS,
          `${mode}: blocking ${CHECKS[check]} took ${polls} polls (over ${WITHIN_POLLS})${context()}`,
        );
      }
      for (const p of r.stillDropped)
        assert.ok(
          dropped(p),
          `${mode}: ${p.from} was answered again while still blocked: ${JSON.stringify(p)}${context()}`,
        );
      assert.equal(
        r.clean?.status,
        200,
        `${mode}: a clean sender (198.51.100.20) was not served: ${JSON.stringify(r.clean)}${context()}`,
      );

      for (const check of Object.keys(CHECKS) as Check[]) {
        const waited = r.unblocked[check];
        assert.ok(
          waited?.ok,
          `${mode}: ${CHECKS[check]} stayed dropped after the block was lifted (last probe ${JSON.stringify(waited?.last)})${context()}`,
        );
        const polls = waited.markAtAccept! - r.pollsAtLift[check]!;
        assert.ok(
          polls <= WITHIN_POLLS,
          `${mode}: lifting the block on ${CHECKS[check]} took ${polls} polls (over ${WITHIN_POLLS})${context()}`,
        );
      }

      // Repeated deletions, and the deletion of an entry it never received, come in the answers
      // after the unblock; the block made meanwhile is enforced all the same.
      assert.ok(
        r.lateBlocked?.ok,
        `${mode}: a block made while deletions repeat was not enforced (last probe ${JSON.stringify(r.lateBlocked?.last)})${context()}`,
      );
      assert.ok(
        r.deletedPerAnswer.length >= REPEAT_POLLS,
        `${mode}: only ${r.deletedPerAnswer.length} answers seen after the unblock`,
      );
      assert.ok(
        r.deletedPerAnswer.filter((n) => n > 0).length >= 2,
        `${mode}: deletions were not repeated: ${JSON.stringify(r.deletedPerAnswer)}`,
      );
      assert.equal(
        r.deletedPerAnswer[r.deletedPerAnswer.length - 1],
        0,
        `${mode}: deletions were repeated past the bound: ${JSON.stringify(r.deletedPerAnswer)}`,
      );
      assert.deepEqual(
        r.problems,
        [],
        `${mode}: the bouncer logged warnings or errors (repeated deletions and deletions of ` +
          `entries it never held must be silent)${context()}`,
      );
    });
  }
});
