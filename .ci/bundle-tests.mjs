// Compiles the test files for .ci/test.mjs: each one bundled with the project's modules it imports (packages stay
// imports), in one esbuild run with shared chunks, under out/tests/. A test process then loads plain JavaScript: tsx
// cost each of the suite's ~250 processes about 1 s of CPU (its loader thread sees every import), a fifth of the run.
// Written here, not taken from a library: esbuild does the work; this only keeps each module's own `import.meta.url`
// (so a module still finds the files beside its source) and maps a test file to its output.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const BUNDLE_DIR = 'out/tests';

/** The compiled path of a test file (`src-server/x.test.ts` → `out/tests/src-server/x.test.mjs`). */
export const bundledPath = (file) => join(BUNDLE_DIR, file.replace(/\.tsx?$/, '.mjs'));

/** The test file a compiled path stands for (the reverse of bundledPath), for reports. */
export const sourceOf = (path) => {
  const rel = relative(resolve(BUNDLE_DIR), resolve(path));
  return rel.startsWith('..') ? relative(process.cwd(), path) : rel.replace(/\.mjs$/, '.ts');
};

/** Each module sees its own source's URL and folder, as under tsx. */
const keepMetaUrl = {
  name: 'keep-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, ({ path }) => {
      const text = readFileSync(path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
        .replaceAll('import.meta.filename', JSON.stringify(path));
      return { contents: text, loader: path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

/** Compiles `files` (test files, relative to the project's root); resolves with the seconds it took. */
export async function bundleTests(files) {
  const started = Date.now();
  await build({
    entryPoints: files,
    outdir: BUNDLE_DIR,
    outbase: '.',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    sourcemap: 'linked',
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
    plugins: [keepMetaUrl],
  });
  return (Date.now() - started) / 1000;
}

/** The worker threads' entry for the tests, in one file (see bundleTestWorker). */
export const TEST_WORKER = join(BUNDLE_DIR, 'worker', 'worker.mjs');

/**
 * Bundles the worker threads' entry with the packages it uses into TEST_WORKER. A thread of a test server then
 * loads one file instead of some 400 (the server's modules and zod's): 0.17 s of CPU a thread instead of 0.36 s, and
 * the suite starts about 350. Native and worker-spawning packages stay imports. Modules the worker loads at run time
 * get zod from the worker's SDK, so they share this bundle's copy.
 */
export async function bundleTestWorker() {
  const started = Date.now();
  await build({
    entryPoints: ['src-server/worker/worker.ts'],
    outfile: TEST_WORKER,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3', 'pino', 'pino-*', 'thread-stream'],
    // Packages written as CommonJS call require(), which an ES module bundle must be given.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [keepMetaUrl],
  });
  return (Date.now() - started) / 1000;
}
