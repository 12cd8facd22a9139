#!/usr/bin/env node
// Runs the test suite with Node's own runner, TypeScript through tsx, in lanes that run at once.
//
//   node .ci/test.mjs                 every lane (npm test)
//   node .ci/test.mjs <dir-or-file>…  those files, in the lanes they belong to
//   node .ci/test.mjs --soak          the soak-sized runs (npm run test:soak; CI's second step)
//
// Lanes: `unit` (src-server, src-main, src-renderer) is CPU-bound and takes both cores; `system`
// (e2e/) mostly waits on real bouncers, Chromium and server processes, so it runs beside it
// instead of after it. Soak sizes (PBX_TEST_SOAK=1, and the files named *.soak.test.ts) are left
// out of npm test and run by `--soak`. The last line is "N passed, N failed" over every lane.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LANES = [
  { name: 'unit', roots: ['src-server', 'src-main', 'src-renderer'], concurrency: 3 },
  { name: 'system', roots: ['e2e'], concurrency: 4 },
];

/**
 * The longest files start first: a lane ends when its last file does, and one of these started late
 * (in alphabetical order) ran alone at the end of its lane for minutes. Measured on this machine,
 * 2026-11-28: each took 60-330 s under the suite's load.
 */
const LONG_FIRST = [
  'e2e/console-a11y-layout.test.ts',
  'e2e/bouncer-crash-delivery.test.ts',
  'e2e/console-manual-bans.test.ts',
  'e2e/console-forms.test.ts',
  'src-server/http/adversarial.test.ts',
  'src-server/http/adversarial-flags.test.ts',
  'src-server/http/bouncer-enforcement.test.ts',
  'src-server/auth/access-matrix.test.ts',
  'src-server/http/bouncer-field.test.ts',
  'src-server/health/health.test.ts',
  'src-server/lint-layers.test.ts',
];
const longFirst = (files) => [
  ...LONG_FIRST.filter((file) => files.includes(file)),
  ...files.filter((file) => !LONG_FIRST.includes(file)),
];
const SOAK_LANE = { name: 'soak', roots: ['src-server', 'src-main', 'src-renderer', 'e2e'], concurrency: 2 };

const args = process.argv.slice(2);
const soak = args.includes('--soak');
const paths = args.filter((arg) => arg !== '--soak');

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
  return LANES.map((lane) => ({ ...lane, files: longFirst(files.filter((file) => laneOf(file) === lane)) })).filter(
    (lane) => lane.files.length > 0,
  );
}

/** A file that sizes a run with test-support/soak.ts grows in the soak lane, so it runs there too. */
const readsSoak = (file) => /test-support\/soak\.ts['"]/.test(readFileSync(file, 'utf8'));

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

/** Runs one lane; resolves with its counts and time once its process ends. */
function runLane(lane) {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${lane.concurrency}`, '--test-reporter=spec', ...lane.files],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PBX_LOG_LEVEL: process.env.PBX_LOG_LEVEL ?? 'silent',
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
const started = Date.now();
const results = await Promise.all(lanes.map(runLane));
console.log('');
for (const { lane, code, counts, seconds } of results)
  console.log(
    `lane ${lane.name}: ${lane.files.length} files, ${counts.pass} passed, ${counts.fail} failed, ${seconds.toFixed(0)} s` +
      (code === 0 ? '' : ` (exit ${code})`),
  );
console.log(`suite: ${((Date.now() - started) / 1000).toFixed(0)} s`);
const passed = results.reduce((sum, r) => sum + r.counts.pass, 0);
const failed = results.reduce((sum, r) => sum + r.counts.fail, 0);
const laneFailed = results.some((r) => r.code !== 0);
console.log(`${passed} passed, ${laneFailed && failed === 0 ? 1 : failed} failed`);
process.exit(laneFailed || failed > 0 ? 1 : 0);
