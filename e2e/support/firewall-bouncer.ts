import { execFileSync, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireNetworkNamespace } from './netns.ts';
import { ensureRendererBuilt } from './renderer-build.ts';

export const FIREWALL_BOUNCER = process.env.PBX_E2E_FIREWALL_BOUNCER ?? '/usr/bin/crowdsec-firewall-bouncer';
/** The Debian package's own configuration; the operator's settings go in `<this>.local`, which overrides it. */
export const PACKAGE_CONFIG = '/etc/crowdsec/bouncers/crowdsec-firewall-bouncer.yaml';

/**
 * The `before` of a kernel suite with the real bouncer: the package, curl and the given programs must be
 * there, and the console is built now, since nothing outside is reachable from inside the namespace.
 */
export async function prepareFirewallBouncerSuite(programs: string[]): Promise<void> {
  requireNetworkNamespace([FIREWALL_BOUNCER, PACKAGE_CONFIG, ...programs, '/usr/bin/curl']);
  await ensureRendererBuilt();
}

/**
 * `yaml` with its file-system paths (log_dir, pid_dir) moved under `dir`, and nothing else changed.
 * Throws when a path key is missing, so a configuration that lost one is noticed.
 */
export function withPathsUnder(yaml: string, dir: string): string {
  let out = yaml;
  for (const key of ['log_dir', 'pid_dir']) {
    const pattern = new RegExp(`^${key}: .*$`, 'm');
    if (!pattern.test(out)) throw new Error(`The configuration has no ${key}:\n${yaml}`);
    out = out.replace(pattern, `${key}: ${dir}/`);
  }
  return out;
}

export interface RunningFirewallBouncer {
  /** The directory holding the configuration files, the pid file and the log. */
  dir: string;
  /** The bouncer's log file plus anything it wrote to stdout/stderr (fatal errors go there). */
  log(): string;
  exited(): boolean;
  /** SIGTERM (the bouncer removes its table/ipset rule), then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/**
 * Runs the real crowdsec-firewall-bouncer the way the Debian package does: `-c` on the package's
 * configuration, with `operatorYaml` as its `.local` override. Only paths are rewritten, in both.
 */
export function startFirewallBouncer(operatorYaml: string): RunningFirewallBouncer {
  if (!existsSync(FIREWALL_BOUNCER))
    throw new Error(
      `crowdsec-firewall-bouncer is not at ${FIREWALL_BOUNCER}: apt-get install -y crowdsec-firewall-bouncer`,
    );
  if (!existsSync(PACKAGE_CONFIG)) throw new Error(`${PACKAGE_CONFIG} is missing: reinstall crowdsec-firewall-bouncer`);
  const dir = mkdtempSync(join(tmpdir(), 'pbx-fw-bouncer-'));
  const config = join(dir, 'crowdsec-firewall-bouncer.yaml');
  writeFileSync(config, withPathsUnder(readFileSync(PACKAGE_CONFIG, 'utf8'), dir), { mode: 0o600 });
  writeFileSync(`${config}.local`, withPathsUnder(operatorYaml, dir), { mode: 0o600 });
  const logFile = join(dir, 'crowdsec-firewall-bouncer.log');

  let output = '';
  const child = spawn(FIREWALL_BOUNCER, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = () => child.exitCode !== null || child.signalCode !== null;

  return {
    dir,
    exited,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '') + output,
    async stop() {
      if (exited()) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
      if (!exited()) child.kill('SIGKILL');
    },
  };
}

/**
 * Lines the bouncer logs on every start whatever the server does: in iptables mode it probes its
 * rule with `ip6tables -C` and only recognises iptables' "Bad rule" answer as "not there yet", so the
 * IPv6 probe is logged as a warning before the rule is created.
 */
const STARTUP_QUIRKS = [
  /level=warning msg="iptables check command \(\S*ip6tables -C INPUT -m set --match-set \S+ src -j DROP\) failed : exit status 1"/,
];

/**
 * Warning and error lines of a bouncer log (logrus text format) and any "Ban duration too long",
 * except the start-up quirks above, which the server cannot cause or avoid.
 */
function problemLines(log: string): string[] {
  return log
    .split('\n')
    .filter((line) => /level=(warning|error|fatal|panic)\b/.test(line) || /Ban duration too long/i.test(line))
    .filter((line) => !STARTUP_QUIRKS.some((quirk) => quirk.test(line)));
}

/** What a scenario reports of its bouncer once it stops it: whether it had exited early, its log and the problems in it. */
interface BouncerReport {
  bouncerExitedEarly: boolean;
  log: string;
  problems: string[];
}

/** Stops the bouncer (if it was started) and reads its report; an empty report without a bouncer. */
export async function stopAndReport(bouncer: RunningFirewallBouncer | undefined): Promise<Partial<BouncerReport>> {
  if (!bouncer) return {};
  const bouncerExitedEarly = bouncer.exited();
  await bouncer.stop();
  const log = bouncer.log();
  return { bouncerExitedEarly, log, problems: problemLines(log) };
}

/** How the bouncer drops traffic: an nftables table, or an ipset with an iptables rule. */
export type FirewallMode = 'nftables' | 'iptables';

/** What the kernel holds for the bouncer's mode: its nftables tables, or its ipsets and iptables rules with counters. */
export function kernelState(mode: FirewallMode): string {
  const show = (command: string, ...args: string[]) => {
    try {
      return `$ ${command} ${args.join(' ')}\n${execFileSync(command, args, { encoding: 'utf8', maxBuffer: 16 << 20 })}`;
    } catch (error) {
      return `$ ${command} ${args.join(' ')}\nfailed: ${(error as Error).message}`;
    }
  };
  if (mode === 'nftables') return show('nft', 'list', 'ruleset');
  return [
    show('ipset', 'list'),
    show('iptables', '-L', 'INPUT', '-n', '-v', '-x'),
    show('ip6tables', '-L', 'INPUT', '-n', '-v', '-x'),
  ].join('\n');
}

/** Waits until the bouncer has set up its table (nftables) or its ipset and INPUT rule (iptables). */
export async function waitForFirewall(mode: FirewallMode, bouncer: RunningFirewallBouncer): Promise<void> {
  const ready = () => {
    try {
      if (mode === 'nftables')
        execFileSync('nft', ['list', 'chain', 'ip', 'crowdsec', 'crowdsec-chain'], { stdio: 'ignore' });
      else
        execFileSync(
          'iptables',
          ['-C', 'INPUT', '-m', 'set', '--match-set', 'crowdsec-blacklists', 'src', '-j', 'DROP'],
          { stdio: 'ignore' },
        );
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 15_000;
  while (!ready()) {
    if (bouncer.exited()) throw new Error(`the bouncer exited while starting:\n${bouncer.log()}`);
    if (Date.now() > deadline)
      throw new Error(`the bouncer set up no firewall in 15 s:\n${bouncer.log()}\n${kernelState(mode)}`);
    await sleep(100);
  }
}
