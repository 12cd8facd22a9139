import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
// Pinned to 4.6.1: later versions resolve through unrs-resolver, whose per-platform binaries are not
// all on this project's registry, so `npm ci` cannot verify the lock file.
import importX from 'eslint-plugin-import-x';
import noTypeCycle from './eslint-rules/no-type-cycle.js';
import tseslint from 'typescript-eslint';

/**
 * Renderer features never import each other: `app/` composes them. Each feature folder gets a
 * no-restricted-imports rule that refuses any path reaching another feature, relative
 * (`../../bans/api/x.ts`) or through `features/` (`../../../features/bans/...`).
 */
const RENDERER_FEATURES = readdirSync(new URL('./src-renderer/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const featureIsolation = RENDERER_FEATURES.map((feature) => {
  const others = RENDERER_FEATURES.filter((f) => f !== feature)
    .map(escapeRegex)
    .join('|');
  return {
    files: [`src-renderer/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\./)?(\\.\\./)+(features/)?(${others})/`,
              message:
                `Renderer features never import each other: compose them in src-renderer/app/ (pass what ` +
                `"${feature}" needs as props).`,
            },
          ],
        },
      ],
    },
  };
});

/**
 * Server layers (docs/architecture.md): the domain never imports the HTTP layer or Koa, wire/ is a
 * leaf, storage/ imports nothing above it. Paths are relative to the repository root.
 */
const SERVER_DOMAIN = [
  'audit',
  'auth',
  'firewall',
  'resources',
  'resource-kit',
  'queue',
  'peers',
  'modules',
  'storage',
  'worker',
  'wire',
  'tls',
  'net',
  'config',
  'openapi',
  'upstream',
];
const HTTP_LAYER = [
  'src-server/http',
  'src-server/legacy',
  'src-server/index.ts',
  'src-server/services.ts',
  'src-server/cli.ts',
];
const serverLayerZones = [
  ...SERVER_DOMAIN.map((folder) => ({
    target: `./src-server/${folder}`,
    from: HTTP_LAYER.map((path) => `./${path}`),
    message:
      `src-server/${folder} is domain code: it never imports the HTTP layer (http/, legacy/) or ` +
      `the composition root; take what it needs as arguments.`,
  })),
  {
    target: './src-server/storage',
    from: './src-server',
    except: ['./storage', './net', './clock.ts'],
    message: 'storage/ is the ground floor: it imports nothing above it (only net/ and clock.ts).',
  },
  {
    target: './src-server/wire',
    from: './src-server',
    except: ['./wire'],
    message: 'wire/ is the leaf every thread shares: it imports nothing of the server.',
  },
  {
    target: './src-server',
    from: './src-server/test-support',
    message: 'test-support/ is test-only and never ships: only *.test.ts files may import it.',
  },
];
const DOMAIN_FILES = SERVER_DOMAIN.map((folder) => `src-server/${folder}/**/*.ts`);

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'data/', '.tmp/', '.tmp*', 'e2e/screenshots/', 'resources/modules/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...featureIsolation,
  {
    files: ['src-server/**/*.ts'],
    plugins: { 'import-x': importX, server: { rules: { 'no-import-cycle': noTypeCycle } } },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'server/no-import-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: serverLayerZones }],
    },
  },
  {
    // Tests and test-support may reach anything, and bring the test helpers with them.
    files: ['src-server/**/*.test.ts', 'src-server/test-support/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    files: DOMAIN_FILES,
    ignores: ['src-server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(koa|koa-.*|@koa/.*)$',
              message:
                'The domain never imports Koa: the HTTP layer (http/, legacy/) adapts requests to plain arguments.',
            },
          ],
        },
      ],
    },
  },
);
