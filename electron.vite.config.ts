import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

// The built server (out/server, from `npm run build:server`) is loaded by main at runtime, never bundled.
const builtServer = /[\\/]server[\\/]index\.js$/;

/**
 * The console is served at `/` over HTTP, by the headless server and in the desktop window alike
 * (http://127.0.0.1:<port>/), never from file://. electron-vite forces `base: './'` for production
 * builds, which makes a reloaded deep link such as /peers/201 ask for /peers/assets/… and get the
 * page instead of its script. This runs after electron-vite's preset and puts the absolute base back.
 */
const absoluteAssetBase: Plugin = {
  name: 'pbx-console:absolute-asset-base',
  enforce: 'post',
  config: (config) => {
    config.base = '/';
  },
};

/** Text files worth compressing: the console's scripts, styles, page and icons. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the renderer build, so the server
 * sends them as they are (koa-static picks the one the browser accepts) and never compresses per request.
 */
const precompressAssets: Plugin = {
  name: 'pbx-console:precompress',
  apply: 'build',
  closeBundle() {
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? walk(path) : [path];
      });
    for (const file of walk(resolve('out/renderer')).filter((path) => COMPRESSIBLE.test(path))) {
      const content = readFileSync(file);
      writeFileSync(
        `${file}.br`,
        brotliCompressSync(content, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
        }),
      );
      writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    }
  },
};

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: { input: { index: resolve('src-main/index.ts') }, external: [builtServer] },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload must be one CommonJS file.
      rolldownOptions: {
        input: { index: resolve('src-main/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    base: '/',
    plugins: [react(), absoluteAssetBase, precompressAssets],
    build: {
      outDir: 'out/renderer',
      emptyOutDir: true,
      // Served over the network to remote consoles too: ship it minified.
      minify: true,
      chunkSizeWarningLimit: 1500,
      rolldownOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
});
