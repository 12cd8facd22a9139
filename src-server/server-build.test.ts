import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '..');

/** Every file `npm run build:server` compiles into out/server, as tsc itself resolves them (imports included). */
function serverBuildFiles(): string[] {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const listed = execFileSync(process.execPath, [tsc, '--listFilesOnly', '-p', 'tsconfig.server.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.includes('/node_modules/'))
    .map((file) => relative(root, file).split('\\').join('/'));
}

test('the server build contains no test code: no tests, nothing from test-support/, no token forging', () => {
  const files = serverBuildFiles();
  assert.ok(files.includes('src-server/index.ts'), `the build lists the server's sources (got ${files.length} files)`);
  assert.deepEqual(
    files.filter((file) => file.includes('/test-support/') || file.endsWith('.test.ts')),
    [],
    'a shipped file imports test-only code',
  );
  // The test credentials sign JWTs with SignJWT directly; the product signs only through auth/jwt.ts.
  const forging = files.filter(
    (file) => file !== 'src-server/auth/jwt.ts' && /\bSignJWT\b/.test(readFileSync(resolve(root, file), 'utf8')),
  );
  assert.deepEqual(forging, [], 'only auth/jwt.ts signs tokens in the build');
});
