// Runs INSIDE a private network namespace (see runInNetworkNamespace): the real server, the real
// crowdsec-firewall-bouncer in iptables mode with the console's configuration, and real packets from
// IPv4 and IPv6 sources on lo. Checks issue 20's kernel-facing rules: a 30-day ban (longer than
// ipset's 2147483 s) reaches ipset capped and renewed by the polls, and three failures from three
// addresses of one IPv6 /64 give one Range decision that drops a fourth address.
// Prints one JSON result; e2e/ban-policy-kernel.test.ts asserts on it.
import { execFileSync } from 'node:child_process';
import { createTestApiKey } from '../../src-server/test-support/api-keys.ts';
import type { TestServer } from '../../src-server/test-support/server.ts';
import { waitUntil } from '../../src-server/test-support/wait.ts';
import { bouncerYaml } from '../../src-renderer/features/api-keys/model/bouncer-config.ts';
import { startConsoleServer } from './console-server.ts';
import {
  kernelState,
  startFirewallBouncer,
  stopAndReport,
  waitForFirewall,
  type RunningFirewallBouncer,
} from './firewall-bouncer.ts';
import { isDropped, isServed, postFrom, probeServed, waitForProbe, type Probe, type Waited } from './kernel-probe.ts';
import { printScenarioResult, upLoopback } from './netns.ts';

/** How long a ban may take to reach the kernel before the run fails: about three polls, but at least 30 s (a loaded machine is slow). */
/** The bouncer's update_frequency here (the console's configuration says 5 s): the waits are short. */
const RUN_INTERVAL_SECONDS = 1;
const ENFORCE_WAIT_MS = Math.max(3 * RUN_INTERVAL_SECONDS * 1000 + 3000, 30_000);

export const ADDRESSES = {
  server: '192.0.2.10',
  server6: '2001:db8::10',
  longBanned: '198.51.100.9',
  /** Three failing addresses of one /64, a fourth that never failed, and one of another /64. */
  prefixSenders: ['2001:db8:1:2::a', '2001:db8:1:2::b', '2001:db8:1:2::c'],
  prefixFourth: '2001:db8:1:2::d',
  otherPrefix: '2001:db8:1:3::a',
} as const;

export interface KernelBanResult {
  /** The 30-day ban as the stream served it to the bouncer's key. */
  longDecision: { duration: string; scope: string } | null;
  /** secondsLeft the API lists for it (its real time). */
  longSecondsLeft: number | null;
  /** ipset's timeout of 198.51.100.9 when first seen, and again after two more polls. */
  ipsetTimeouts: number[];
  longDropped: Waited | null;
  /** HTTP statuses of the failed logins from the three IPv6 addresses. */
  prefixFailures: (number | null)[];
  /** Every decision the stream served for the 2001:db8:1:2:: addresses after the failures. */
  prefixDecisions: Array<{ value: string; scope: string; scenario: string }>;
  fourthDropped: Waited | null;
  otherPrefix: Probe | null;
  kernel: string;
  log: string;
  problems: string[];
  bouncerExitedEarly: boolean;
  error?: string;
}

const V3 = '/pbxcore/api/v3/';

/** Every poll the server has counted, over all keys (one bouncer runs here). */
async function pollsSoFar(server: TestServer): Promise<number> {
  const status = await server.call(`${V3}firewall:getBouncerStatus`);
  return (status.json.data.bouncers as { polls: number }[]).reduce((sum, b) => sum + b.polls, 0);
}

/** ipset's remaining timeout of an entry of the bouncer's IPv4 set, or null when it is not there. */
function ipsetTimeout(address: string): number | null {
  const listing = execFileSync('ipset', ['list', 'crowdsec-blacklists'], { encoding: 'utf8' });
  const match = new RegExp(`^${address.replace(/\./g, '\\.')}(?:/32)? timeout (\\d+)`, 'm').exec(listing);
  return match ? Number(match[1]) : null;
}

async function main(): Promise<KernelBanResult> {
  const result: KernelBanResult = {
    longDecision: null,
    longSecondsLeft: null,
    ipsetTimeouts: [],
    longDropped: null,
    prefixFailures: [],
    prefixDecisions: [],
    fourthDropped: null,
    otherPrefix: null,
    kernel: '',
    log: '',
    problems: [],
    bouncerExitedEarly: false,
  };
  let server: TestServer | undefined;
  let bouncer: RunningFirewallBouncer | undefined;
  try {
    upLoopback(Object.values(ADDRESSES).flat());

    server = await startConsoleServer({ host: '::', adminPassword: 'kernel-ban-policy-password' });
    const port = server.server.port;
    const pbx4 = `http://${ADDRESSES.server}:${port}`;
    const pbx6 = `http://[${ADDRESSES.server6}]:${port}`;
    const key = createTestApiKey(server.server.services.db, { description: 'fw1 iptables' }).key;
    const yaml = bouncerYaml(`${pbx4}/pbxcore/api/v3/firewall-bouncer/`, key, 'iptables').replace(
      /^update_frequency: \d+s$/m,
      `update_frequency: ${RUN_INTERVAL_SECONDS}s`,
    );

    const ping6 = `${pbx6}${V3}system:ping`;
    const baseline = await Promise.all(
      [ADDRESSES.prefixFourth, ADDRESSES.otherPrefix].map((from) => probeServed(from, ping6)),
    );
    if (!baseline.every(isServed))
      throw new Error(`before any ban, an IPv6 sender was not served: ${JSON.stringify(baseline)}`);

    // Paranoid's 30 days on the web category, three failures, IPv6 counted by /64.
    const rules = await server.call(`${V3}fail2ban`, {
      method: 'PATCH',
      body: { preset: 'paranoid', ipv6ByPrefix: true, ipv6Prefix: 64 },
    });
    if (rules.status !== 200) throw new Error(`fail2ban: ${rules.status} ${rules.text}`);

    bouncer = startFirewallBouncer(yaml);
    await waitForFirewall('iptables', bouncer);

    // A 30-day ban from real failed logins.
    for (let i = 0; i < 3; i++)
      await postFrom(ADDRESSES.longBanned, `${pbx4}${V3}auth:login`, { login: 'admin', password: `wrong-${i}` });
    const bans = (await server.call(`${V3}firewall:getBannedIps`)).json.data as Array<{
      ip: string;
      secondsLeft: number;
    }>;
    result.longSecondsLeft = bans.find((b) => b.ip === ADDRESSES.longBanned)?.secondsLeft ?? null;
    const served = (
      await server.call(`${V3}firewall-bouncer/v1/decisions?ip=${ADDRESSES.longBanned}`, {
        headers: { 'X-Api-Key': key },
      })
    ).json as Array<{ duration: string; scope: string }> | null;
    result.longDecision = served?.[0] ? { duration: served[0].duration, scope: served[0].scope } : null;
    result.longDropped = await waitForProbe(
      ADDRESSES.longBanned,
      `${pbx4}${V3}system:ping`,
      isDropped,
      ENFORCE_WAIT_MS,
    );
    const first = ipsetTimeout(ADDRESSES.longBanned);
    if (first !== null) result.ipsetTimeouts.push(first);
    // Two polls renew the entry's timeout: wait for three more polls counted by the server (its count is
    // flushed each second, so it may lag one), not for the clock.
    const pbx = server;
    const polled = await pollsSoFar(pbx);
    await waitUntil('two more polls of the bouncer', async () => (await pollsSoFar(pbx)) >= polled + 3);
    const later = ipsetTimeout(ADDRESSES.longBanned);
    if (later !== null) result.ipsetTimeouts.push(later);

    // Three addresses of one /64 fail once each: one Range decision; a fourth address is dropped.
    for (const [i, from] of ADDRESSES.prefixSenders.entries())
      result.prefixFailures.push(
        await postFrom(from, `${pbx6}${V3}auth:login`, { login: 'admin', password: `wrong-v6-${i}` }),
      );
    const since = Date.now();
    const stream = (
      await server.call(`${V3}firewall-bouncer/v1/decisions/stream?startup=true`, { headers: { 'X-Api-Key': key } })
    ).json as { new: Array<{ value: string; scope: string; scenario: string }> };
    result.prefixDecisions = stream.new
      .filter((d) => d.value.startsWith('2001:db8:1:2:'))
      .map(({ value, scope, scenario }) => ({ value, scope, scenario }));
    result.fourthDropped = await waitForProbe(ADDRESSES.prefixFourth, ping6, isDropped, ENFORCE_WAIT_MS, since);
    result.otherPrefix = await probeServed(ADDRESSES.otherPrefix, ping6);
    result.kernel = kernelState('iptables');
  } catch (error) {
    result.error = (error as Error).stack ?? String(error);
    if (!result.kernel) result.kernel = kernelState('iptables');
  } finally {
    Object.assign(result, await stopAndReport(bouncer));
    await server?.close();
  }
  return result;
}

printScenarioResult(await main());
process.exit(0);
