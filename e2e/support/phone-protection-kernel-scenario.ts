// Runs INSIDE a private network namespace (see runInNetworkNamespace): the real server fed by an AMI
// double speaking Asterisk's protocol, the real crowdsec-firewall-bouncer in iptables mode with the
// console's configuration, and real packets on lo. An office address with two registered phones
// keeps reaching the server while an account behind it fails again and again (AMI security events
// and real failed logins from that address); an unregistered neighbour that fails is dropped.
// Prints one JSON result; e2e/phone-protection-kernel.test.ts asserts on it.
import { AmiTestServer } from '../../src-server/test-support/ami-server.ts';
import { createTestApiKey } from '../../src-server/test-support/api-keys.ts';
import type { TestServer } from '../../src-server/test-support/server.ts';
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

const RUN_INTERVAL_SECONDS = 1;
const ENFORCE_WAIT_MS = 30_000;
const MAXRETRY = 3;

export const ADDRESSES = {
  server: '192.0.2.10',
  /** The office's NAT address: phones 101 and 103 are registered from it; 102 fails there. */
  office: '198.51.100.10',
  /** Nothing is registered here: its failures ban it. */
  neighbour: '198.51.100.11',
} as const;

export interface PhoneKernelResult {
  /** Both senders before anything failed: served. */
  baseline: Probe[];
  /** Whether the AMI feed had protected the office before the failures. */
  officeProtected: boolean;
  /** Statuses of the real failed logins from the office. */
  officeLogins: (number | null)[];
  /** The neighbour, from its failures to the first dropped probe. */
  neighbourDropped: Waited | null;
  /** The office probed after the neighbour was dropped, and again two polls later. */
  officeAfter: Probe[];
  /** Every decision the bouncer's key is served, by value. */
  decisions: string[];
  /** The flags raised, as the Dashboard reads them. */
  flags: string[];
  kernel: string;
  log: string;
  problems: string[];
  bouncerExitedEarly: boolean;
  error?: string;
}

const V3 = '/pbxcore/api/v3/';

async function main(): Promise<PhoneKernelResult> {
  const result: PhoneKernelResult = {
    baseline: [],
    officeProtected: false,
    officeLogins: [],
    neighbourDropped: null,
    officeAfter: [],
    decisions: [],
    flags: [],
    kernel: '',
    log: '',
    problems: [],
    bouncerExitedEarly: false,
  };
  let server: TestServer | undefined;
  let bouncer: RunningFirewallBouncer | undefined;
  let ami: AmiTestServer | undefined;
  try {
    upLoopback(Object.values(ADDRESSES));
    ami = await AmiTestServer.start();
    ami.endpoints.set('101', { deviceState: 'Not in use', contact: { uri: `sip:101@${ADDRESSES.office}:5060` } });
    ami.endpoints.set('103', { deviceState: 'Not in use', contact: { uri: `sip:103@${ADDRESSES.office}:5062` } });

    server = await startConsoleServer({ host: '0.0.0.0', adminPassword: 'kernel-phones-password' });
    const pbx = `http://${ADDRESSES.server}:${server.server.port}`;
    const ping = `${pbx}${V3}system:ping`;
    const rules = await server.call(`${V3}fail2ban`, { method: 'PATCH', body: { maxretry: MAXRETRY } });
    if (rules.status !== 200) throw new Error(`fail2ban: ${rules.status} ${rules.text}`);
    const link = await server.call(`${V3}ami`, {
      method: 'PUT',
      body: { enabled: true, host: ami.host, port: ami.port, username: 'admin', secret: 'amp111' },
    });
    if (link.status !== 200) throw new Error(`ami: ${link.status} ${link.text}`);
    const registered = server.server.services.firewall.registered;
    for (let i = 0; i < 300 && !registered.isProtected(ADDRESSES.office); i++)
      await new Promise((r) => setTimeout(r, 100));
    result.officeProtected = registered.isProtected(ADDRESSES.office);

    result.baseline = await Promise.all([ADDRESSES.office, ADDRESSES.neighbour].map((from) => probeServed(from, ping)));
    if (!result.baseline.every(isServed))
      throw new Error(`before any failure, a sender was not served: ${JSON.stringify(result.baseline)}`);

    const key = createTestApiKey(server.server.services.db, { description: 'fw1 iptables' }).key;
    const yaml = bouncerYaml(`${pbx}/pbxcore/api/v3/firewall-bouncer/`, key, 'iptables').replace(
      /^update_frequency: \d+s$/m,
      `update_frequency: ${RUN_INTERVAL_SECONDS}s`,
    );
    bouncer = startFirewallBouncer(yaml);
    await waitForFirewall('iptables', bouncer);

    // Account 102 keeps failing behind the office (a stale password), and real failed logins come
    // from the office address too; account 300 fails from the neighbour.
    const failure = (account: string, from: string) =>
      ami!.emitEvent({
        Event: 'InvalidPassword',
        Service: 'PJSIP',
        AccountID: account,
        RemoteAddress: `IPV4/UDP/${from}/5060`,
      });
    for (let i = 0; i < MAXRETRY * 3; i++) failure('102', ADDRESSES.office);
    for (let i = 0; i < MAXRETRY; i++)
      result.officeLogins.push(
        await postFrom(ADDRESSES.office, `${pbx}${V3}auth:login`, { login: 'admin', password: `wrong-${i}` }),
      );
    const since = Date.now();
    for (let i = 0; i < MAXRETRY; i++) failure('300', ADDRESSES.neighbour);

    result.neighbourDropped = await waitForProbe(ADDRESSES.neighbour, ping, isDropped, ENFORCE_WAIT_MS, since);
    result.officeAfter.push(await probeServed(ADDRESSES.office, ping));
    await new Promise((r) => setTimeout(r, (2 * RUN_INTERVAL_SECONDS + 1) * 1000)); // two more polls
    result.officeAfter.push(await probeServed(ADDRESSES.office, ping));

    const stream = (
      await server.call(`${V3}firewall-bouncer/v1/decisions/stream?startup=true`, { headers: { 'X-Api-Key': key } })
    ).json as { new: Array<{ value: string }> | null };
    result.decisions = (stream.new ?? []).map((d) => d.value).sort();
    const protection = (await server.call(`${V3}firewall:getPhoneProtection`)).json.data as {
      flags: Array<{ text: string }>;
    };
    result.flags = protection.flags.map((f) => f.text).sort();
    result.kernel = kernelState('iptables');
  } catch (error) {
    result.error = (error as Error).stack ?? String(error);
    if (!result.kernel) result.kernel = kernelState('iptables');
  } finally {
    Object.assign(result, await stopAndReport(bouncer));
    await server?.close();
    await ami?.close();
  }
  return result;
}

printScenarioResult(await main());
process.exit(0);
