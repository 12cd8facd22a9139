// Benchmark: a scanner's burst of AMI security events, 10,000 per second from 1,000 addresses, read
// by the real path (AMI link → parser → classifier → detector → bans in SQLite) on the web thread,
// whose event loop is watched the whole time. The AMI double runs in a child process, so writing the
// burst costs the measured process nothing. Prints JSON.
//   node --import tsx bench/security-burst.ts [seconds=5] [eventsPerSecond=10000] [addresses=1000]
import { createHook } from 'node:async_hooks';
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const [seconds = 5, perSecond = 10_000, addresses = 1_000] = (
  process.argv[2] === 'ami' ? [] : process.argv.slice(2)
).map(Number);
const SLICE_MS = 10;
const V3 = '/pbxcore/api/v3/';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ipOf = (i: number) => `203.0.${(i >> 8) & 255}.${i & 255}`;

type Command =
  | { cmd: 'burst'; seconds: number; perSecond: number; addresses: number }
  | { cmd: 'oversize' }
  | { cmd: 'stop' };

// ---------------------------------------------------------------- AMI side (child process)
async function amiSide(): Promise<void> {
  const { AmiTestServer } = await import('../src-server/test-support/ami-server.ts');
  const { securityEventWire } = await import('../src-server/test-support/ami-security-corpus.ts');
  const ami = await AmiTestServer.start({ username: 'bench', secret: 'bench-secret' });
  /** A scanner's mix: unknown users over UDP, wrong passwords over TCP, a few FailedACL. */
  const eventOf = (n: number) => {
    const a = n % addresses;
    const kind = n % 10;
    const name = kind < 7 ? 'InvalidAccountID' : kind < 9 ? 'ChallengeResponseFailed' : 'FailedACL';
    const transport = kind < 7 ? 'UDP' : 'TCP';
    return securityEventWire(name, {
      service: 'PJSIP',
      account: kind < 7 ? `${1000 + (n % 9000)}` : '100',
      session: `${n.toString(16)}@scanner`,
      local: `IPV4/${transport}/192.0.2.5/5060`,
      remote: `IPV4/${transport}/${ipOf(a)}/${5060 + (n % 1000)}`,
    });
  };
  process.on('message', async (message: Command) => {
    if (message.cmd === 'oversize') {
      // A 1 MB AccountID (parsed, dropped as malformed), a 1.1 MB block (skipped by the framing),
      // then one ordinary failure whose arrival says both were read.
      const huge = securityEventWire('InvalidPassword', {
        service: 'PJSIP',
        account: 'x'.repeat(1_000_000),
        session: 'huge',
        local: 'IPV4/UDP/192.0.2.5/5060',
        remote: 'IPV4/UDP/198.51.100.1/5060',
      });
      const overLimit = `Event: InvalidPassword\r\nService: PJSIP\r\nAccountID: ${'y'.repeat(1_100_000)}\r\n\r\n`;
      const after = securityEventWire('InvalidPassword', {
        service: 'PJSIP',
        account: 'after',
        session: 'after',
        local: 'IPV4/UDP/192.0.2.5/5060',
        remote: 'IPV4/UDP/198.51.100.2/5060',
      });
      ami.sendRaw(huge + overLimit + after);
      process.send!({ ok: true });
      return;
    }
    if (message.cmd === 'stop') {
      await ami.close();
      process.send!({ ok: true });
      return process.exit(0);
    }
    const perSlice = Math.round((message.perSecond * SLICE_MS) / 1000);
    const slices = Math.round((message.seconds * 1000) / SLICE_MS);
    const started = performance.now();
    let n = 0;
    for (let s = 0; s < slices; s++) {
      let text = '';
      for (let i = 0; i < perSlice; i++) text += eventOf(n++);
      ami.sendRaw(text);
      const due = started + (s + 1) * SLICE_MS;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
    }
    process.send!({ sent: n, sendMs: Math.round(performance.now() - started) });
  });
  process.send!({ host: ami.host, port: ami.port });
}

// ---------------------------------------------------------------- server side (this process: measured)
async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['ami'], { execArgv: ['--import', 'tsx'] });
  const amiAt = await new Promise<{ host: string; port: number }>((resolve) =>
    child.once('message', (m) => resolve(m as { host: string; port: number })),
  );
  /** One answer per command, in order. */
  const ask = <T>(command: Command) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(command);
    });
  const { startTestServer } = await import('../src-server/test-support/server.ts');
  const t = await startTestServer({ logLevel: 'silent' });
  let failures = 0;
  t.server.services.bus.on('security-failure', () => failures++);
  // Normal preset (10 in 1 h) with its slow window: both rules are counted for every event.
  await t.call(`${V3}fail2ban`, { method: 'PATCH', body: { preset: 'normal' } });
  await t.call(`${V3}ami`, {
    method: 'PATCH',
    body: { enabled: true, host: amiAt.host, port: amiAt.port, username: 'bench', secret: 'bench-secret' },
  });
  while (!t.server.services.peers?.connected) await sleep(20);
  await sleep(500); // the first state refresh after login

  const bans = t.server.services.firewall!.bans;
  /** The event loop's worst delay over `ms`, while `during` runs. */
  const watchLoop = async <T>(during: Promise<T>) => {
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const elu = performance.eventLoopUtilization();
    // Each callback's own CPU time (process.cpuUsage: the idle worker threads add next to nothing).
    // On a loaded machine a callback's wall time includes the time its thread waited for a core;
    // its CPU time is what the code itself held the loop for.
    const began = new Map<number, number>();
    let longestTaskCpuMs = 0;
    const cpuNow = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    const hook = createHook({
      before: (id) => void began.set(id, cpuNow()),
      after: (id) => {
        const start = began.get(id);
        if (start !== undefined) longestTaskCpuMs = Math.max(longestTaskCpuMs, cpuNow() - start);
        began.delete(id);
      },
    }).enable();
    let longestGap = 0;
    let lastTick = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - lastTick);
      lastTick = now;
    }, 5);
    const value = await during;
    hook.disable();
    clearInterval(ticker);
    loop.disable();
    const stats = {
      eventLoopDelayMaxMs: Math.round(loop.max / 1e6),
      eventLoopDelayP99Ms: Math.round(loop.percentile(99) / 1e6),
      longestTimerGapMs: Math.round(longestGap),
      longestTaskCpuMs: Math.round(longestTaskCpuMs * 10) / 10,
      // The share of the time the loop was running code: low means the delays above are the
      // machine's (the thread waiting for a core), not long tasks.
      eventLoopUtilization: Math.round(performance.eventLoopUtilization(elu).utilization * 100) / 100,
    };
    return { value, stats };
  };
  // The same watch with the link up and no event: what the loaded machine alone costs.
  const idle = await watchLoop(sleep(seconds * 1000));

  const banned = () => Array.from({ length: addresses }, (_, i) => ipOf(i)).filter((ip) => bans.get('sip', ip)).length;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let allBannedMs: number | null = null;
  const progress = setInterval(() => {
    if (allBannedMs === null && banned() === addresses) allBannedMs = Math.round(performance.now() - started);
  }, 50);
  const burst = await watchLoop(
    (async () => {
      const sent = await ask<{ sent: number; sendMs: number }>({ cmd: 'burst', seconds, perSecond, addresses });
      // The tail of the burst still in the socket.
      const deadline = performance.now() + 30_000;
      while (failures < sent.sent && performance.now() < deadline) await sleep(20);
      return sent;
    })(),
  );
  clearInterval(progress);
  const cpu = process.cpuUsage(cpuBefore);
  const sent = burst.value;

  // The oversized events, once the burst is over: from writing them to the next event's arrival.
  const failuresBefore = failures;
  const droppedBefore = t.server.services.peers!.dropped.total;
  const oversizeStarted = performance.now();
  const oversize = await watchLoop(
    (async () => {
      await ask({ cmd: 'oversize' });
      while (failures === failuresBefore) await sleep(1);
      return Math.round(performance.now() - oversizeStarted);
    })(),
  );
  const result = {
    bench: 'security-burst',
    date: new Date().toISOString(),
    loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
    burst: { seconds, eventsPerSecond: perSecond, addresses, sent: sent.sent, sendMs: sent.sendMs },
    classified: { securityFailures: failuresBefore, dropped: droppedBefore },
    oversized: {
      readMs: oversize.value,
      dropped: t.server.services.peers!.dropped.total - droppedBefore,
      bannedAnything: bans.get('sip', '198.51.100.1') !== undefined,
      webThread: oversize.stats,
    },
    banned: banned(),
    allBannedMs,
    processedMs: Math.round(performance.now() - started),
    cpuMsPerThousandEvents: Math.round(((cpu.user + cpu.system) / 1000 / sent.sent) * 1000 * 10) / 10,
    webThread: { idle: idle.stats, burst: burst.stats },
    target: 'web thread never held over 50 ms',
  };
  console.log(JSON.stringify(result, null, 2));
  await ask({ cmd: 'stop' });
  await t.close();
  process.exit(0);
}

if (process.argv[2] === 'ami') void amiSide();
else void main();
