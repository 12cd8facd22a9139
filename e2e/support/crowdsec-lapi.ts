import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src-server/test-support/tls.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Where .ci/crowdsec.sh extracts the Debian package (never apt-get installed: its post-install fails offline). */
const BIN = join(ROOT, '.tmp/crowdsec/usr/bin');

/** A decision as `cscli decisions list -o json` shows it (inside its alert). */
export interface CscliDecision {
  id: number;
  origin: string;
  scenario: string;
  scope: string;
  value: string;
  duration: string;
}

/** The real CrowdSec LAPI (`crowdsec -no-cs`) on a loopback port with a private config, SQLite and no online API. */
export interface CrowdsecLapi {
  url: string;
  dir: string;
  /** Runs the real cscli against this LAPI's config; returns stdout. */
  cscli(...args: string[]): string;
  /** Active decisions, as `cscli decisions list -o json` (every origin). */
  decisions(): CscliDecision[];
  addMachine(login: string, password: string): void;
  /** Registers a bouncer with the given key. */
  addBouncer(name: string, key: string): void;
  /** Stops the LAPI process (its database stays). */
  stop(): Promise<void>;
  /** Starts it again on the same port and database. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Fetches and extracts the package if needed (idempotent); throws with what is missing. */
export function ensureCrowdsecBinaries(): string {
  if (!existsSync(join(BIN, 'crowdsec'))) execFileSync(join(ROOT, '.ci/crowdsec.sh'), { stdio: 'inherit' });
  if (!existsSync(join(BIN, 'crowdsec')) || !existsSync(join(BIN, 'cscli')))
    throw new Error(`crowdsec binaries missing in ${BIN}: run .ci/crowdsec.sh`);
  return BIN;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolveWait, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolveWait();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`the LAPI did not listen on ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/** Starts a private LAPI: config, profiles and SQLite in a fresh temporary folder, CAPI off, no hub. */
export async function startCrowdsecLapi(): Promise<CrowdsecLapi> {
  const bin = ensureCrowdsecBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'pbx-lapi-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  for (const sub of ['data', 'hub', 'notifications', 'plugins']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'simulation.yaml'), 'simulation: off\n');
  writeFileSync(
    join(dir, 'profiles.yaml'),
    'name: default_ip_remediation\nfilters:\n - Alert.Remediation == true && Alert.GetScope() ' +
      '== "Ip"\ndecisions:\n - type: ban\n   duration: 4h\non_success: break\n',
  );
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    `common:
  daemonize: false
  log_media: stdout
  log_level: warning
  working_dir: .
config_paths:
  config_dir: ${dir}/
  data_dir: ${dir}/data/
  simulation_path: ${dir}/simulation.yaml
  hub_dir: ${dir}/hub/
  index_path: ${dir}/hub/.index.json
  notification_dir: ${dir}/notifications/
  plugin_dir: ${dir}/plugins/
cscli:
  output: json
db_config:
  log_level: warning
  type: sqlite
  db_path: ${dir}/data/crowdsec.db
  use_wal: true
api:
  client:
    insecure_skip_verify: false
    credentials_path: ${dir}/local_api_credentials.yaml
  server:
    log_level: warning
    listen_uri: 127.0.0.1:${port}
    profiles_path: ${dir}/profiles.yaml
    trusted_ips: [127.0.0.1]
prometheus:
  enabled: false
`,
  );
  const cscli = (...args: string[]) =>
    execFileSync(join(bin, 'cscli'), ['-c', config, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // cscli's own machine: `cscli decisions list/add` go through the LAPI with it.
  cscli(
    'machines',
    'add',
    'cscli-admin',
    '--password',
    'cscli-admin-password',
    '-f',
    join(dir, 'local_api_credentials.yaml'),
    '--url',
    url,
  );
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    child = spawn(join(bin, 'crowdsec'), ['-c', config, '-no-cs'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await waitForPort(port, 15_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${output.slice(-2000)}`);
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((r) => running.once('exit', () => r()));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  return {
    url,
    dir,
    cscli,
    decisions() {
      const alerts = JSON.parse(cscli('decisions', 'list', '-a', '-o', 'json') || 'null') as Array<{
        decisions: CscliDecision[];
      }> | null;
      return (alerts ?? []).flatMap((alert) => alert.decisions ?? []);
    },
    addMachine: (login, password) => void cscli('machines', 'add', login, '--password', password, '-f', '/dev/null'),
    addBouncer: (name, key) => void cscli('bouncers', 'add', name, '-k', key),
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
