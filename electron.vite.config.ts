import { resolve } from 'node:path';
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
      rolldownOptions: { input: { index: resolve('src-main/preload.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'src-renderer',
    base: '/',
    plugins: [react(), absoluteAssetBase],
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
