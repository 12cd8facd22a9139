#!/usr/bin/env node
// `npm start`: build what is missing or stale, then serve headless (API + console).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time under a folder (0 when absent). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

function run(script) {
  const result = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// src-shared (bounds, enums, contract types) is part of both builds.
const shared = newest('src-shared');
const serverBuilt =
  existsSync('out/server/cli.js') && newest('out/server') >= newest('src-server') && newest('out/src-shared') >= shared;
const consoleBuilt =
  existsSync('out/renderer/index.html') && newest('out/renderer') >= Math.max(newest('src-renderer'), shared);
if (!serverBuilt) run('build:server');
if (!consoleBuilt) run('build:console');

const server = spawnSync(process.execPath, ['out/server/cli.js', 'serve', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(server.status ?? 0);
