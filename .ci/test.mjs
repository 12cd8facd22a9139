#!/usr/bin/env node
// Runs the test suite with Node's own runner, in lanes that run at once. The test files run compiled (see
// .ci/bundle-tests.mjs); those that hand the server TypeScript resource modules run from source through tsx.
//
//   node .ci/test.mjs                 every lane (npm test)
//   node .ci/test.mjs <dir-or-file>…  those files, in the lanes they belong to
//   node .ci/test.mjs --soak          the soak-sized runs (npm run test:soak; CI's second step)
//   node .ci/test.mjs --list [--soak] the files each lane would run, in order, without running them
//
// Lanes: `unit` (src-server, src-main, src-renderer) is CPU-bound and takes both cores; `system`
// (e2e/) mostly waits on real bouncers, Chromium and server processes, so it runs beside it
// instead of after it. Soak sizes (PBX_TEST_SOAK=1, and the files named *.soak.test.ts) are left
// out of npm test and run by `--soak`. The last line is "N passed, N failed" over every lane.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { bundledPath, bundleTests, bundleTestWorker, sourceOf, TEST_WORKER } from './bundle-tests.mjs';

const LANES = [
  { name: 'unit', roots: ['src-server', 'src-main', 'src-renderer'], concurrency: 4 },
  { name: 'system', roots: ['e2e'], concurrency: 4 },
];

/**
 * The longest files start first: a lane ends when its last file does, and one of these started late
 * (in alphabetical order) ran alone at the end of its lane for minutes. Measured on this machine,
 * 2026-11-28: each took 30-100 s under the suite's load (the lane summary prints the slowest files).
 */
const LONG_FIRST = [
  'e2e/bouncer-crash-delivery.test.ts',
  'e2e/console-manual-bans.test.ts',
  'e2e/console-bouncer-keys.test.ts',
  'e2e/console-forms.test.ts',
  'e2e/console-ban-policy.test.ts',
  'e2e/console-a11y-layout-1.test.ts',
  'e2e/console-a11y-layout-2.test.ts',
  'e2e/console-a11y-layout-3.test.ts',
  'e2e/console-enforcement.test.ts',
  'e2e/console-ban-escalation.test.ts',
  'src-server/http/adversarial-flags.test.ts',
  'src-server/http/bouncer-enforcement.test.ts',
  'src-server/http/adversarial-routes-1.test.ts',
  'src-server/http/adversarial-routes-2.test.ts',
  'src-server/http/bouncer-field.test.ts',
  'src-server/auth/access-matrix.test.ts',
  'src-server/http/adversarial-routes-3.test.ts',
  'src-server/http/adversarial-routes-4.test.ts',
  'src-server/http/adversarial.test.ts',
  'src-server/queue/concurrent-writes.test.ts',
  'src-server/lint-layers.test.ts',
  'src-server/health/health.test.ts',
];
const longFirst = (files) => [
  ...LONG_FIRST.filter((file) => files.includes(file)),
  ...files.filter((file) => !LONG_FIRST.includes(file)),
];
const SOAK_LANE = { name: 'soak', roots: ['src-server', 'src-main', 'src-renderer', 'e2e'], concurrency: 2 };

const args = process.argv.slice(2);
const soak = args.includes('--soak');
const list = args.includes('--list');
const paths = args.filter((arg) => arg !== '--soak' && arg !== '--list');

function collect(path, out) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return out;
  if (stat.isFile()) return path.endsWith('.test.ts') ? [...out, path] : out;
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    out = collect(join(path, entry), out);
  }
  return out;
}

const isSoakFile = (file) => file.endsWith('.soak.test.ts');
const laneOf = (file) => LANES.find((lane) => lane.roots.some((root) => file === root || file.startsWith(`${root}/`)));

/** The lanes to run, each with its files. */
function plan() {
  if (soak) {
    const roots = paths.length ? paths : SOAK_LANE.roots;
    // The soak lane runs the soak files and every file that reads PBX_TEST_SOAK (they grow in it).
    const files = roots.flatMap((root) => collect(root, [])).filter((file) => isSoakFile(file) || readsSoak(file));
    return [{ ...SOAK_LANE, files }];
  }
  const files = (paths.length ? paths : LANES.flatMap((lane) => lane.roots))
    .flatMap((root) => collect(root, []))
    .filter((file) => !isSoakFile(file));
  return LANES.flatMap((lane) => {
    const own = longFirst(files.filter((file) => laneOf(file) === lane));
    return [
      { ...lane, files: own.filter((file) => !needsTsx(file)) },
      { ...lane, name: `${lane.name}-ts`, concurrency: 1, fromSource: true, files: own.filter(needsTsx) },
    ];
  }).filter((lane) => lane.files.length > 0);
}

/**
 * A file that hands the server resource modules written in TypeScript (loaded by path at run time, on the web
 * thread too) runs from source through tsx, in a lane of its own: the modules it loads and the ones it imports
 * are then the same instances.
 */
const needsTsx = (file) => /resourceModules|DIAGNOSTICS_MODULE/.test(readFileSync(file, 'utf8'));

/**
 * A file that sizes a run with test-support/soak.ts grows in the soak lane, so it runs there too: directly, or
 * through a support module it imports (the adversarial shards import theirs).
 */
function readsSoak(file, depth = 0) {
  if (!existsSync(file)) return false; // a path in a fixture's text, not an import
  const text = readFileSync(file, 'utf8');
  if (/test-support\/soak\.ts['"]/.test(text) || (depth > 0 && /from '\.\/soak\.ts'/.test(text))) return true;
  if (depth > 0) return false;
  return [...text.matchAll(/from '(\.{1,2}\/[^']*(?:test-support|support)\/[^']+\.ts)'/g)].some(([, spec]) =>
    readsSoak(join(dirname(file), spec), depth + 1),
  );
}

/**
 * A test file whose process never exits (a handle left open) would hold its lane, and CI, forever:
 * the lane's runner gives each file process at most this long, then ends it, and the file fails.
 */
const FILE_LIMIT_S = Number(process.env.PBX_TEST_FILE_LIMIT_S) || 20 * 60;

/** Ends the lane's test file processes that have run longer than FILE_LIMIT_S (Linux `ps`). */
function endStuckFiles(lane, runnerPid) {
  let table = '';
  try {
    table = execFileSync('ps', ['-o', 'pid=,etimes=,args=', '--ppid', String(runnerPid)], { encoding: 'utf8' });
  } catch {
    return; // no child right now
  }
  for (const line of table.split('\n')) {
    const [pid, seconds, ...args] = line.trim().split(/\s+/);
    if (!pid || Number(seconds) < FILE_LIMIT_S) continue;
    console.error(`[${lane.name}] ${args.at(-1)} ran ${seconds} s without ending: stopped (the file fails)`);
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/**
 * The server compiled from this tree (`tsc -b`, incremental: under a second when nothing changed). The tests'
 * worker threads and spawned CLIs run it instead of the source through tsx (see src-server/queue/start-queue.ts):
 * the same code, loaded in half the CPU, hundreds of times a run.
 */
function buildServer() {
  const started = Date.now();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'tsconfig.server.json'], { stdio: 'inherit' });
  console.log(`server built for the tests' workers in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return resolve('out/server');
}

const timesDir = mkdtempSync(join(tmpdir(), 'pbx-test-times-'));
const timesFile = (lane) => join(timesDir, `${lane.name}.jsonl`);

/** The slowest files of a lane, as the file-times reporter wrote them. */
function slowestFiles(lane, count = 8) {
  let lines = [];
  try {
    lines = readFileSync(timesFile(lane), 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return '';
  }
  return lines
    .map((line) => JSON.parse(line))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map(({ file, seconds }) => `${sourceOf(file)} ${seconds.toFixed(0)} s`)
    .join(', ');
}

/** Runs one lane; resolves with its counts and time once its process ends. */
function runLane(lane, builtServer) {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      ...(lane.fromSource ? ['--import', 'tsx'] : ['--enable-source-maps']),
      '--test',
      `--test-concurrency=${lane.concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./.ci/file-times.mjs',
      `--test-reporter-destination=${timesFile(lane)}`,
      ...(lane.fromSource ? lane.files : lane.files.map(bundledPath)),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PBX_LOG_LEVEL: process.env.PBX_LOG_LEVEL ?? 'silent',
        PBX_BUILT_SERVER: builtServer,
        PBX_TEST_WORKER: resolve(TEST_WORKER),
        ...(soak ? { PBX_TEST_SOAK: '1' } : {}),
      },
    },
  );
  const counts = { pass: 0, fail: 0, tests: 0 };
  const prefix = `[${lane.name}] `;
  const relay = (stream, out) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (text) => {
      const lines = (rest + text).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        const summary = /^ℹ (tests|pass|fail) (\d+)$/.exec(line);
        if (summary) counts[summary[1]] += Number(summary[2]);
        out.write(`${prefix}${line}\n`);
      }
    });
    stream.on('end', () => rest && out.write(`${prefix}${rest}\n`));
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  const watchdog = setInterval(() => endStuckFiles(lane, child.pid), 30_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearInterval(watchdog);
      resolve({ lane, code: code ?? 1, counts, seconds: (Date.now() - started) / 1000 });
    }),
  );
}

const lanes = plan();
if (lanes.every((lane) => lane.files.length === 0)) {
  console.error(
    `No test files${soak ? ' for the soak lane' : ''} under ${(paths.length ? paths : ['the lanes']).join(', ')}`,
  );
  process.exit(1);
}
if (list) {
  for (const lane of lanes) console.log(`${lane.name} (${lane.files.length} files):\n  ${lane.files.join('\n  ')}`);
  process.exit(0);
}
const started = Date.now();
const builtServer = buildServer();
const compiled = lanes.filter((lane) => !lane.fromSource).flatMap((lane) => lane.files);
console.log(`${compiled.length} test files compiled in ${(await bundleTests(compiled)).toFixed(1)} s`);
console.log(`the tests' worker entry bundled in ${(await bundleTestWorker()).toFixed(1)} s`);
const results = await Promise.all(lanes.map((lane) => runLane(lane, builtServer)));
console.log('');
for (const { lane, code, counts, seconds } of results) {
  console.log(
    `lane ${lane.name}: ${lane.files.length} files, ${counts.pass} passed, ${counts.fail} failed, ${seconds.toFixed(0)} s` +
      (code === 0 ? '' : ` (exit ${code})`),
  );
  const slowest = slowestFiles(lane);
  if (slowest) console.log(`  slowest: ${slowest}`);
}
console.log(`suite: ${((Date.now() - started) / 1000).toFixed(0)} s`);
const passed = results.reduce((sum, r) => sum + r.counts.pass, 0);
const failed = results.reduce((sum, r) => sum + r.counts.fail, 0);
const laneFailed = results.some((r) => r.code !== 0);
console.log(`${passed} passed, ${laneFailed && failed === 0 ? 1 : failed} failed`);
process.exit(laneFailed || failed > 0 ? 1 : 0);
