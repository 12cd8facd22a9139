#!/usr/bin/env node
// `npm run bench`: runs every benchmark in bench/*.ts (helpers live in bench/support/), one after another.
// Run from the repository root.
// Usage: npm run bench [-- name ...]   e.g. npm run bench -- v3-throughput
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const wanted = process.argv.slice(2);
const benches = readdirSync('bench')
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => !wanted.length || wanted.some((w) => f.startsWith(w)))
  .sort();
// The start-up benchmark measures the built CLI.
if (!existsSync('out/server/cli.js')) spawnSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
let failed = 0;
for (const file of benches) {
  console.error(`\n== bench/${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
