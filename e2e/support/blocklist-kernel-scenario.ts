// Runs INSIDE a private network namespace (see runInNetworkNamespace): the real server, and a
// router script (blocklist-ipset.sh) that fetches the plain_text blocklist feed with curl and loads
// it into a kernel ipset behind an iptables DROP rule, as a Linux router's cron job would. Real
// packets from listed senders are dropped; after the ban is lifted and the feed fetched again they
// pass. Prints one JSON result; e2e/blocklist-kernel.test.ts asserts on it.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApiKey } from '../../src-server/test-support/api-keys.ts';
import { createFilter } from '../../src-server/test-support/bouncer.ts';
import { startTestServer, type TestServer } from '../../src-server/test-support/server.ts';
import { probe, probeServed, type Probe } from './kernel-probe.ts';
import { printScenarioResult, upLoopback } from './netns.ts';

const SCRIPT = fileURLToPath(new URL('./blocklist-ipset.sh', import.meta.url));
const SET = 'pbx-blocklist';

/** TEST-NET addresses on the namespace's loopback. */
export const FEED_ADDRESSES = {
  server: '192.0.2.10',
  router: '192.0.2.1',
  banned: '198.51.100.7',
  insideNetwork: '203.0.113.77',
  clean: '198.51.100.20',
} as const;

export interface FeedScenarioResult {
  /** Every sender before the feed is loaded: all served. */
  baseline: Probe[];
  /** The script's output for each run: loaded N entries, or unchanged. */
  runs: string[];
  /** The set as the kernel holds it after the first load. */
  setWhileBanned: string;
  whileBanned: { banned: Probe; insideNetwork: Probe; clean: Probe };
  afterUnban: { banned: Probe; insideNetwork: Probe };
  setAfterUnban: string;
  /** From a source outside the key's network filter: the feed's status. */
  otherSourceStatus: number | null;
  error?: string;
}

const V3 = '/pbxcore/api/v3/';

const run = promisify(execFile);

/** Runs the router script (asynchronously: the server answering it lives in this process). */
async function runScript(url: string, dir: string): Promise<string> {
  return (await run('sh', [SCRIPT, url, SET, dir, FEED_ADDRESSES.router], { encoding: 'utf8' })).stdout.trim();
}

async function main(): Promise<FeedScenarioResult> {
  const result: FeedScenarioResult = {
    baseline: [],
    runs: [],
    setWhileBanned: '',
    whileBanned: {} as FeedScenarioResult['whileBanned'],
    afterUnban: {} as FeedScenarioResult['afterUnban'],
    setAfterUnban: '',
    otherSourceStatus: null,
  };
  let server: TestServer | undefined;
  try {
    upLoopback(Object.values(FEED_ADDRESSES));
    server = await startTestServer({ host: '0.0.0.0' });
    const pbx = `http://${FEED_ADDRESSES.server}:${server.server.port}`;
    const ping = `${pbx}${V3}system:ping`;

    // The key is bound to the router's address, as the console's "Router feed" preset makes it.
    const routerFilter = await createFilter(server, {
      permit: `${FEED_ADDRESSES.router}/32`,
      deny: '0.0.0.0/0',
      description: 'Router',
    });
    const { key } = createTestApiKey(server.server.services.db, {
      description: 'router feed',
      networkFilterId: String(routerFilter.id),
    });
    const origin = `http://router:${key}@${FEED_ADDRESSES.server}:${server.server.port}`;
    const feedUrl = `${origin}${V3}firewall-bouncer/blocklist?format=plain_text&ipv4only`;

    result.baseline = await Promise.all(
      [FEED_ADDRESSES.banned, FEED_ADDRESSES.insideNetwork, FEED_ADDRESSES.clean].map((from) =>
        probeServed(from, ping),
      ),
    );

    const banned = await server.call(`${V3}firewall:banIp`, {
      method: 'POST',
      body: { ip: FEED_ADDRESSES.banned, duration: '1h', reason: 'scanner' },
    });
    if (banned.status !== 201) throw new Error(`banIp: ${banned.status} ${banned.text}`);
    await createFilter(server, { permit: '203.0.113.0/24', deny: '203.0.113.0/24', description: 'Blocked network' });

    const dir = mkdtempSync(join(tmpdir(), 'pbx-router-'));
    execFileSync('ipset', ['create', SET, 'hash:net', '-exist']);
    execFileSync('iptables', ['-I', 'INPUT', '-m', 'set', '--match-set', SET, 'src', '-j', 'DROP']);
    result.runs.push(await runScript(feedUrl, dir));
    result.setWhileBanned = execFileSync('ipset', ['list', SET], { encoding: 'utf8' });
    result.whileBanned = {
      banned: await probe(FEED_ADDRESSES.banned, ping, 1),
      insideNetwork: await probe(FEED_ADDRESSES.insideNetwork, ping, 1),
      clean: await probeServed(FEED_ADDRESSES.clean, ping),
    };
    // Nothing changed: the router's next fetch gets 304 and leaves the set alone.
    result.runs.push(await runScript(feedUrl, dir));

    const lifted = await server.call(`${V3}firewall:unbanIp`, { method: 'POST', body: { ip: FEED_ADDRESSES.banned } });
    if (lifted.status !== 200) throw new Error(`unbanIp: ${lifted.status} ${lifted.text}`);
    result.runs.push(await runScript(feedUrl, dir));
    result.setAfterUnban = execFileSync('ipset', ['list', SET], { encoding: 'utf8' });
    result.afterUnban = {
      banned: await probeServed(FEED_ADDRESSES.banned, ping),
      insideNetwork: await probe(FEED_ADDRESSES.insideNetwork, ping, 1),
    };
    // The key's binding: from the PBX's own address (not the router) the feed is refused.
    const other = await run(
      'curl',
      [
        '--silent',
        '--output',
        '/dev/null',
        '--write-out',
        '%{http_code}',
        '--interface',
        FEED_ADDRESSES.server,
        feedUrl,
      ],
      { encoding: 'utf8' },
    );
    result.otherSourceStatus = Number(other.stdout) || null;
  } catch (error) {
    result.error = (error as Error).stack ?? String(error);
  } finally {
    await server?.close();
  }
  return result;
}

printScenarioResult(await main());
