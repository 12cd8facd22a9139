import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CUSTOM_BOUNCER = process.env.PBX_E2E_CUSTOM_BOUNCER ?? '/usr/bin/crowdsec-custom-bouncer';

/** One call of the bouncer's script: `add <value> <seconds> <scenario> <decision json>` or `del ...`. */
export interface BouncerCall {
  action: 'add' | 'del';
  value: string;
  /** The whole argument line, e.g. `add 203.0.113.0/24 2145600 pbx/manual {...}`. */
  line: string;
}

export interface BouncerOptions {
  /**
   * How long the client remembers a decision it applied, so a decision repeated in every poll's
   * snapshot is not added again (a longer value makes "added once" independent of test timing).
   */
  cacheRetention?: string;
  /** HTTPS: accept any server certificate (the bouncer's `insecure_skip_verify`). */
  insecureSkipVerify?: boolean;
  /** HTTPS: verify the server against this CA or self-signed certificate (`ca_cert_path`). */
  caCertPath?: string;
}

export interface RunningBouncer {
  /** Every add/del the bouncer made so far, in order. */
  calls(): BouncerCall[];
  /** Resolves once the bouncer has made a matching call (rejects after `timeoutMs`). */
  waitFor(action: BouncerCall['action'], value: string, timeoutMs?: number): Promise<void>;
  /** Resolves with the first whole call line matching `pattern` (rejects after `timeoutMs`). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** What the bouncer logged (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Runs the real `crowdsec-custom-bouncer` against `apiUrl` with `apiKey`, polling every second; its
 * script appends each add/del to a file the test reads.
 */
export function startCustomBouncer(apiUrl: string, apiKey: string, options: BouncerOptions = {}): RunningBouncer {
  const { dir, callsFile, script } = workDir();
  // Keys as in the package's /etc/crowdsec/bouncers/crowdsec-custom-bouncer.yaml.
  return run(
    dir,
    callsFile,
    [
      `bin_path: ${script}`,
      'feed_via_stdin: false',
      'total_retries: 0',
      'scenarios_containing: []',
      'scenarios_not_containing: []',
      'origins: []',
      `piddir: ${dir}`,
      'update_frequency: 1s',
      `cache_retention_duration: ${options.cacheRetention ?? '5m'}`,
      'daemonize: false',
      'log_mode: stdout',
      'log_level: info',
      `api_url: ${apiUrl}`,
      `api_key: ${apiKey}`,
      ...(options.insecureSkipVerify ? ['insecure_skip_verify: true'] : []),
      ...(options.caCertPath ? [`ca_cert_path: ${options.caCertPath}`, 'insecure_skip_verify: false'] : []),
      'prometheus:',
      '  enabled: false',
      '',
    ].join('\n'),
  );
}

/**
 * Runs the real `crowdsec-custom-bouncer` with a configuration as the console gives it: only its
 * file paths change (bin_path to the recording script, piddir, and log_dir to a temporary folder,
 * and ca_cert_path to `caCertPath` when given).
 */
export function startCustomBouncerWithConfig(yaml: string, paths: { caCertPath?: string } = {}): RunningBouncer {
  const { dir, callsFile, script } = workDir();
  const withPaths = (key: string, value: string) => (text: string) => {
    const line = new RegExp(`^${key}:.*$`, 'm');
    if (!line.test(text)) throw new Error(`The configuration has no ${key}:\n${text}`);
    return text.replace(line, `${key}: ${value}`);
  };
  const changes = [withPaths('bin_path', script), withPaths('piddir', `${dir}/`), withPaths('log_dir', `${dir}/`)];
  if (paths.caCertPath) changes.push(withPaths('ca_cert_path', paths.caCertPath));
  const config = changes.reduce((text, change) => change(text), yaml);
  return run(dir, callsFile, config);
}

/** A temporary folder with an empty calls file and the script that appends each call to it. */
function workDir() {
  if (!existsSync(CUSTOM_BOUNCER)) {
    throw new Error(
      `crowdsec-custom-bouncer is not at ${CUSTOM_BOUNCER}: run "apt-get install -y ` +
        `crowdsec-custom-bouncer", or set PBX_E2E_CUSTOM_BOUNCER.`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'pbx-bouncer-'));
  const callsFile = join(dir, 'calls.log');
  const script = join(dir, 'record.sh');
  writeFileSync(callsFile, '');
  writeFileSync(script, `#!/bin/sh\necho "$@" >> "${callsFile}"\n`);
  chmodSync(script, 0o755);
  return { dir, callsFile, script };
}

function run(dir: string, callsFile: string, configText: string): RunningBouncer {
  const config = join(dir, 'bouncer.yaml');
  writeFileSync(config, configText);
  let stdio = '';
  const child: ChildProcess = spawn(CUSTOM_BOUNCER, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (stdio += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stdio += d.toString()));
  // With log_mode: file the bouncer writes its log in log_dir instead of stdout.
  const logFile = join(dir, 'crowdsec-custom-bouncer.log');
  const output = () => stdio + (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');

  const calls = (): BouncerCall[] =>
    readFileSync(callsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [action, value] = line.split(' ');
        return { action: action as BouncerCall['action'], value: value ?? '', line };
      });
  const exited = () => child.exitCode !== null || child.signalCode !== null;

  return {
    calls,
    log: output,
    async waitFor(action, value, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!calls().some((c) => c.action === action && c.value === value)) {
        if (Date.now() > deadline || exited()) {
          throw new Error(
            `The bouncer never called "${action} ${value}". Calls: ${JSON.stringify(calls())}\nBouncer log:\n${output().slice(-3000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async waitForLine(pattern, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = calls().find((c) => pattern.test(c.line));
        if (hit) return hit.line;
        if (Date.now() > deadline || exited()) {
          throw new Error(
            `No bouncer call matched ${pattern}. Calls:\n${calls()
              .map((c) => c.line)
              .join('\n')}\nBouncer log:\n${output().slice(-3000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
