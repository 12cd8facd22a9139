#!/usr/bin/env node
// Runs the test suite with Node's own runner, TypeScript through tsx.
// Usage: node .ci/test.mjs [dir-or-file ...]   (default: src-server src-main src-renderer e2e)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['src-server', 'src-main', 'src-renderer', 'e2e'];

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

const files = roots.flatMap((r) => collect(r, []));
if (files.length === 0) {
  console.error(`No test files under ${roots.join(', ')}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, PBX_LOG_LEVEL: process.env.PBX_LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
