import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// The built server (out/server, from `npm run build:server`) is loaded by main at runtime, never bundled.
const builtServer = /[\\/]server[\\/]index\.js$/;

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
    // Served at `/` by the server (headless and desktop); absolute asset URLs keep deep links like /peers/101 working.
    base: '/',
    plugins: [react()],
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
