import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ROOT } from './renderer-build.ts';

/** Runs ip(8) in the current namespace. */
function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * Inside the namespace: brings its loopback up with `addresses` on it, each as a host address (IPv6
 * without duplicate address detection, so it can send at once).
 */
export function upLoopback(addresses: readonly string[]): void {
  ip('link', 'set', 'lo', 'up');
  for (const address of addresses)
    if (address.includes(':')) ip('-6', 'addr', 'add', `${address}/128`, 'dev', 'lo', 'nodad');
    else ip('addr', 'add', `${address}/32`, 'dev', 'lo');
}

/** The line a namespace scenario prints its JSON result on (everything else on stdout is progress). */
export const RESULT_PREFIX = 'PBX-SCENARIO-RESULT ';

/** Prints a scenario's result for runInNetworkNamespace. */
export function printScenarioResult(result: unknown): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/**
 * What is missing to run real-firewall tests here: root (nftables, ipset and addresses in a
 * private network namespace need CAP_NET_ADMIN), a working `unshare -n`, and the given programs.
 * Empty when everything is there.
 */
export function networkNamespaceProblems(programs: string[]): string[] {
  const problems: string[] = [];
  if (process.getuid?.() !== 0)
    problems.push(
      `these tests must run as root (uid ${process.getuid?.()}): they create a private network ` +
        `namespace with its own firewall (CI runs as root; locally use sudo).`,
    );
  const unshare = spawnSync('unshare', ['--net', '--', 'true'], { encoding: 'utf8' });
  if (unshare.error || unshare.status !== 0) {
    problems.push(
      `"unshare --net" does not work here (${unshare.error?.message ?? unshare.stderr.trim()}): ` +
        `install util-linux and run as root with CAP_SYS_ADMIN (a container needs --privileged or ` +
        `--cap-add SYS_ADMIN,NET_ADMIN).`,
    );
  }
  for (const program of programs)
    if (!existsSync(program))
      problems.push(
        `${program} is missing: apt-get install -y crowdsec-firewall-bouncer nftables iptables ipset curl chromium`,
      );
  return problems;
}

/** Fails the suite, naming everything missing, when real-firewall tests cannot run here. */
export function requireNetworkNamespace(programs: string[]): void {
  const problems = networkNamespaceProblems(programs);
  if (problems.length)
    assert.fail(`This test needs a real firewall in a private network namespace:\n- ${problems.join('\n- ')}`);
}

export interface NamespaceRun<T> {
  /** The scenario's JSON result, when it printed one. */
  result: T | undefined;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Progress and errors the scenario wrote (for failure messages). */
  output: string;
}

/**
 * Runs `node --import tsx <script> ...args` inside a new network namespace (`unshare --net`), in a
 * process group of its own: on timeout or when this process exits, the whole group is killed, and
 * the namespace goes away with its last process. Build everything before: nothing outside is
 * reachable from inside.
 */
export function runInNetworkNamespace<T>(script: string, args: string[], timeoutMs: number): Promise<NamespaceRun<T>> {
  const child = spawn(
    'unshare',
    ['--net', '--fork', '--kill-child', '--', process.execPath, '--import', 'tsx', script, ...args],
    {
      cwd: ROOT,
      detached: true, // setsid: the scenario, its browser helpers and the bouncer share one group
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);

  let stdout = '';
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));

  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 3000).unref();
    }, timeoutMs);
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      killGroup('SIGKILL'); // anything the scenario left behind
      process.removeListener('exit', onExit);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      resolve({
        result: line ? (JSON.parse(line.slice(RESULT_PREFIX.length)) as T) : undefined,
        exitCode,
        signal,
        timedOut,
        output: output.replace(/^PBX-SCENARIO-RESULT .*$/m, '[result]'),
      });
    });
  });
}
