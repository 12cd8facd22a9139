// Runs INSIDE a private network namespace (see runInNetworkNamespace): the real server, a bouncer key
// made in the console, the real crowdsec-firewall-bouncer with the dialog's configuration, and real
// packets from several source addresses. Prints one JSON result; the e2e test asserts on it.
// Usage: unshare --net -- node --import tsx e2e/support/firewall-bouncer-scenario.ts <nftables|iptables>
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestServer } from '../../src-server/test-support/server.ts';
import { request } from '../../src-server/test-support/http.ts';
import { createBouncerKeyInConsole } from './bouncer-key-dialog.ts';
import { launchConsoleBrowser } from './browser.ts';
import { startConsoleServer } from './console-server.ts';
import {
  kernelState,
  startFirewallBouncer,
  stopAndReport,
  waitForFirewall,
  type FirewallMode,
  type RunningFirewallBouncer,
} from './firewall-bouncer.ts';
import {
  isDropped,
  isServed,
  postFrom,
  probe,
  probeServed,
  waitForProbe,
  type Probe,
  type Waited,
} from './kernel-probe.ts';
import { printScenarioResult, upLoopback } from './netns.ts';
import { REPEAT_POLLS } from '../../src-server/firewall/export/index.ts';

export type Backend = FirewallMode;

/** TEST-NET addresses on the namespace's loopback: the PBX (and bouncer host), and the senders. */
export const ADDRESSES = {
  server: '192.0.2.10',
  blockedIp: '198.51.100.7',
  blockedNetwork: '203.0.113.0/24',
  insideNetwork: '203.0.113.77',
  intruder: '198.51.100.9',
  clean: '198.51.100.20',
  /** Blocked while lifted deletions are still being repeated. */
  late: '198.51.100.33',
  /** Added and removed before the bouncer's next poll: deleted without ever being received. */
  ghost: '198.51.100.44',
} as const;

/** What each check blocks, then unblocks. */
export type Check = 'ip' | 'network' | 'ban';
const SENDER: Record<Check, string> = {
  ip: ADDRESSES.blockedIp,
  network: ADDRESSES.insideNetwork,
  ban: ADDRESSES.intruder,
};

/** The bouncer's update_frequency in this scenario (the product's dialog offers 5-10 s). */
const RUN_INTERVAL_SECONDS = 1;

export interface ScenarioResult {
  mode: Backend;
  /** The configuration copied from the key dialog. */
  yaml: string;
  /** The key record's expand_ranges, as the server reads it back. */
  expandRanges: boolean | null;
  /** The dialog's update_frequency (asserted 5-10 s by the test). */
  updateFrequencySeconds: number;
  /** The interval the bouncer ran at here: the dialog's configuration with a 1 s update_frequency. */
  runIntervalSeconds: number;
  /** Every sender before anything is blocked: all must be served, or a drop proves nothing. */
  baseline: Probe[];
  /** HTTP statuses of the failed logins from the intruder, then of one more request (the ban). */
  intrusion: (number | null)[];
  /** From the API call that blocked it to the first dropped probe. */
  blocked: Partial<Record<Check, Waited>>;
  /** Each blocked sender probed again once all blocks were in: still dropped. */
  stillDropped: Probe[];
  /** A sender nothing blocks, while every block is in force. */
  clean: Probe | null;
  /** From the API call that lifted it to the first served probe. */
  unblocked: Partial<Record<Check, Waited>>;
  /** The bouncer's polls answered when each block was made, and when each was lifted. */
  pollsAtBlock: Partial<Record<Check, number>>;
  pollsAtLift: Partial<Record<Check, number>>;
  /** The bouncer's answers after the unblock, each with how many deletions it carried. */
  deletedPerAnswer: number[];
  /** The late block, enforced while deletions were repeated in the same answers. */
  lateBlocked: Waited | null;
  kernelWhileBlocked: string;
  kernelAfter: string;
  bouncerExitedEarly: boolean;
  log: string;
  problems: string[];
  error?: string;
}

const V3 = '/pbxcore/api/v3/';

async function main(mode: Backend): Promise<ScenarioResult> {
  const result: ScenarioResult = {
    mode,
    yaml: '',
    expandRanges: null,
    updateFrequencySeconds: 0,
    runIntervalSeconds: RUN_INTERVAL_SECONDS,
    baseline: [],
    intrusion: [],
    blocked: {},
    stillDropped: [],
    clean: null,
    unblocked: {},
    pollsAtBlock: {},
    pollsAtLift: {},
    deletedPerAnswer: [],
    lateBlocked: null,
    kernelWhileBlocked: '',
    kernelAfter: '',
    bouncerExitedEarly: false,
    log: '',
    problems: [],
  };
  let server: TestServer | undefined;
  let bouncer: RunningFirewallBouncer | undefined;
  try {
    upLoopback([
      ADDRESSES.server,
      ADDRESSES.blockedIp,
      ADDRESSES.insideNetwork,
      ADDRESSES.intruder,
      ADDRESSES.clean,
      ADDRESSES.late,
    ]);

    server = await startConsoleServer({ host: '0.0.0.0', adminPassword: 'kernel-e2e-password' });
    const pbx = `http://${ADDRESSES.server}:${server.server.port}`;
    const ping = `${pbx}${V3}system:ping`;

    // The key and its configuration come from the console, as an operator makes them.
    const browser = await launchConsoleBrowser();
    try {
      await browser.page.goto(`${server.url}/`);
      const issued = await createBouncerKeyInConsole(browser.page, {
        description: `fw1 ${mode}`,
        backend: mode,
        bouncerHostIp: ADDRESSES.server,
        apiHost: ADDRESSES.server,
      });
      result.yaml = issued.yaml;
    } finally {
      await browser.close();
    }
    const keys = (await server.call(`${V3}api-keys`)).json.data as Array<{ id: number; expand_ranges?: boolean }>;
    result.expandRanges = keys[0]?.expand_ranges ?? null;
    result.updateFrequencySeconds = Number(/^update_frequency: (\d+)s$/m.exec(result.yaml)?.[1] ?? NaN);
    // The bouncer runs the dialog's configuration at a 1 s interval: the waits below follow the
    // real client's polls, and the dialog's 5-10 s is asserted by the test on the yaml itself.
    const poll = RUN_INTERVAL_SECONDS * 1000;
    const runYaml = result.yaml.replace(/^update_frequency: \d+s$/m, `update_frequency: ${RUN_INTERVAL_SECONDS}s`);

    result.baseline = await Promise.all(
      Object.values(SENDER)
        .concat(ADDRESSES.clean)
        .map((from) => probeServed(from, ping)),
    );
    if (!result.baseline.every(isServed))
      throw new Error(`before any block, a sender was not served: ${JSON.stringify(result.baseline)}`);

    // The bouncer's first poll (?startup=true) must succeed or it exits: check the key from the bouncer host first.
    const apiKey = /^api_key: (\S+)$/m.exec(result.yaml)?.[1] ?? '';
    const check = await request(`${pbx}${V3}firewall-bouncer/v1/whitelist`, {
      headers: { 'X-Api-Key': apiKey },
      localAddress: ADDRESSES.server,
    });
    if (check.status !== 200)
      throw new Error(`the export refused the new key from the bouncer host: ${check.status} ${check.text}`);

    bouncer = startFirewallBouncer(runYaml);
    await waitForFirewall(mode, bouncer);
    await waitForFirstPoll(server, bouncer);

    // Block: an address and a network (filter deny entries, as the console's "Block a network"), and an intruder.
    const block = (value: string) =>
      server!.call(`${V3}firewall`, {
        method: 'POST',
        body: {
          permit: value,
          deny: value,
          description: `Blocked ${value}`,
          newer_block_ip: false,
          local_network: false,
          currentRules: { SIP: false, WEB: false, AMI: false, IAX: false },
        },
      });
    // The bouncer's polls so far: how soon a change is enforced is counted in polls, not timed (a
    // loaded machine is slow for reasons of its own); the waits below only end a run that never would.
    const cursor = () => server!.server.services.firewall!.cursors.get(keys[0]!.id);
    const polls = () => cursor()?.polls ?? 0;
    const filterIds: Partial<Record<Check, number>> = {};
    const blockedAt: Partial<Record<Check, number>> = {};
    for (const [check, value] of [
      ['ip', ADDRESSES.blockedIp],
      ['network', ADDRESSES.blockedNetwork],
    ] as const) {
      const created = await block(value);
      if (created.status !== 201) throw new Error(`blocking ${value} failed: ${created.status} ${created.text}`);
      blockedAt[check] = Date.now();
      result.pollsAtBlock[check] = polls();
      filterIds[check] = created.json.data.id as number;
    }
    const fail2ban = await server.call(`${V3}fail2ban`, { method: 'PATCH', body: { maxretry: 2 } });
    if (fail2ban.status !== 200) throw new Error(`fail2ban maxretry: ${fail2ban.status} ${fail2ban.text}`);
    for (let i = 0; i < 2; i++)
      result.intrusion.push(
        await postFrom(ADDRESSES.intruder, `${pbx}${V3}auth:login`, { login: 'admin', password: `wrong-${i}` }),
      );
    blockedAt.ban = Date.now();
    result.pollsAtBlock.ban = polls();
    result.intrusion.push((await probe(ADDRESSES.intruder, ping, 2)).status);

    const blockLimit = Math.max(3 * poll + 3000, 30_000);
    await Promise.all(
      (Object.keys(SENDER) as Check[]).map(async (check) => {
        result.blocked[check] = await waitForProbe(SENDER[check], ping, isDropped, blockLimit, blockedAt[check], polls);
      }),
    );
    result.clean = await probeServed(ADDRESSES.clean, ping);
    result.stillDropped = await Promise.all(Object.values(SENDER).map((from) => probe(from, ping)));
    result.kernelWhileBlocked = kernelState(mode);

    // Unblock all three at once; each is timed from its own API call.
    const unblockLimit = Math.max(2 * poll + 8000, 30_000);
    const unblock: Record<Check, () => Promise<{ status: number; text: string }>> = {
      ip: () => server!.call(`${V3}firewall/${filterIds.ip}`, { method: 'DELETE' }),
      network: () => server!.call(`${V3}firewall/${filterIds.network}`, { method: 'DELETE' }),
      ban: () => server!.call(`${V3}firewall:unbanIp`, { method: 'POST', body: { ip: ADDRESSES.intruder } }),
    };
    await Promise.all(
      (Object.keys(SENDER) as Check[]).map(async (check) => {
        const answer = await unblock[check]();
        const since = Date.now();
        result.pollsAtLift[check] = polls();
        if (answer.status !== 200)
          throw new Error(`lifting the ${check} block failed: ${answer.status} ${answer.text}`);
        result.unblocked[check] = await waitForProbe(SENDER[check], ping, isServed, unblockLimit, since, polls);
      }),
    );

    // Deletions are repeated on the bouncer's next REPEAT_POLLS answers, and an entry added and
    // removed before its next poll is deleted without ever being received. In the same answers a
    // new block arrives: it must be enforced all the same, and the bouncer must not warn.
    const pollsBefore = cursor()?.polls ?? 0;
    const ghost = await block(ADDRESSES.ghost);
    if (ghost.status !== 201) throw new Error(`ghost block: ${ghost.status} ${ghost.text}`);
    if ((await server.call(`${V3}firewall/${ghost.json.data.id}`, { method: 'DELETE' })).status !== 200)
      throw new Error('ghost unblock failed');
    const lateAt = Date.now();
    if ((await block(ADDRESSES.late)).status !== 201) throw new Error('late block failed');
    result.lateBlocked = await waitForProbe(ADDRESSES.late, ping, isDropped, blockLimit, lateAt);
    const deadline = Date.now() + Math.max((REPEAT_POLLS + 3) * poll + 3000, 60_000); // ends once enough answers came
    let seen = pollsBefore;
    while (Date.now() < deadline && result.deletedPerAnswer.length < REPEAT_POLLS + 2) {
      const now = cursor();
      if (now && now.polls > seen) {
        seen = now.polls;
        result.deletedPerAnswer.push(now.lastDeleted);
      }
      await sleep(100);
    }
    result.kernelAfter = kernelState(mode);
  } catch (error) {
    result.error = (error as Error).stack ?? String(error);
    if (!result.kernelWhileBlocked) result.kernelWhileBlocked = kernelState(mode);
  } finally {
    Object.assign(result, await stopAndReport(bouncer));
    await server?.close();
  }
  return result;
}

/** Waits until the server has served the bouncer's startup poll, so block timings start from a polling bouncer. */
async function waitForFirstPoll(server: TestServer, bouncer: RunningFirewallBouncer): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const status = await server.call(`${V3}firewall:getBouncerStatus`);
    // A list answer (data is the array) in this version; {bouncers, rejections} in the declaration's words.
    const data = status.json?.data;
    const bouncers = (Array.isArray(data) ? data : (data?.bouncers ?? [])) as Array<{ polls: number }>;
    if (bouncers.some((b) => b.polls > 0)) return;
    if (bouncer.exited()) throw new Error(`the bouncer exited before its first poll:\n${bouncer.log()}`);
    if (Date.now() > deadline)
      throw new Error(
        `the server saw no poll from the bouncer in 10 s (${status.status} ${status.text}):\n${bouncer.log()}`,
      );
    await sleep(100);
  }
}

const mode = process.argv[2];
if (mode !== 'nftables' && mode !== 'iptables') {
  console.error('usage: firewall-bouncer-scenario.ts <nftables|iptables>');
  process.exit(2);
}
printScenarioResult(await main(mode));
process.exit(0);
