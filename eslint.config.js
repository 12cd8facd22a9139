import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
// Pinned to 4.6.1: later versions resolve through unrs-resolver, whose per-platform binaries are not
// all on this project's registry, so `npm ci` cannot verify the lock file.
import importX from 'eslint-plugin-import-x';
import noTypeCycle from './eslint-rules/no-type-cycle.js';
import tableOwner from './eslint-rules/table-owners.js';
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
/**
 * The console calls the API by operation (lib/api-client.ts: `callOperation('firewall.getBannedIps', …)`);
 * only that client reaches the transport that takes a path string, so no caller pairs a path and a type by hand.
 */
const untypedTransport = {
  regex: '(^|/)api-transport(\\.ts)?$',
  message:
    "Call the API by operation through lib/api-client.ts (callOperation('firewall.getBannedIps', { query })): " +
    'the transport takes a path string, whose type would be picked by hand.',
};
const typedApiCalls = {
  files: ['src-renderer/**/*.{ts,tsx}'],
  ignores: ['src-renderer/lib/api-client.ts', 'src-renderer/**/*.test.ts'],
  rules: { 'no-restricted-imports': ['error', { patterns: [untypedTransport] }] },
};
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
            untypedTransport,
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
 * The server's layer order (docs/architecture.md), top to bottom, written once. Each row is a set of
 * folders and files under src-server/. A file imports its own folder and the rows below its row, never
 * another member of its row nor a row above. Derived from the real imports (folder-level edges); the
 * test in src-server/lint-layers.test.ts fails when a folder or file of src-server/ is in no row.
 */
export const SERVER_LAYER_ROWS = [
  ['cli.ts'],
  ['index.ts'],
  ['startup'],
  ['legacy'],
  ['http'],
  ['services.ts', 'worker', 'logger.ts', 'terminal-log.ts'],
  ['resources'],
  ['openapi', 'health'],
  ['modules', 'upstream', 'peers', 'queue', 'notifications'],
  ['resource-kit', 'firewall', 'auth', 'audit'],
  ['storage', 'tls', 'bus.ts'],
  ['wire', 'net', 'config', 'clock.ts', 'package-info.ts'],
];
/** Leaves stricter than their row: of the rows below them, they import only these. */
const LEAF_IMPORTS = { storage: ['net', 'clock.ts'] };
/** Everything below the HTTP layer's row is domain code: it never imports Koa (nor, by the rows, http/). */
const HTTP_ROW = SERVER_LAYER_ROWS.findIndex((row) => row.includes('http'));
const SERVER_DOMAIN = SERVER_LAYER_ROWS.slice(HTTP_ROW + 1)
  .flat()
  .filter((unit) => !unit.endsWith('.ts'));

const serverPath = (unit) => `./src-server/${unit}`;
const rowZones = SERVER_LAYER_ROWS.flatMap((row, index) => {
  const above = SERVER_LAYER_ROWS.slice(0, index).flat();
  const below = SERVER_LAYER_ROWS.slice(index + 1).flat();
  return row.map((unit) => ({
    target: serverPath(unit),
    from: [...above, ...row.filter((other) => other !== unit)].map(serverPath),
    message:
      `src-server/${unit} is in row ${index + 1} of the layer order (eslint.config.js, docs/architecture.md): ` +
      `it imports only its own folder and the rows below (${below.join(', ') || 'none: it is a leaf'}).`,
  }));
}).filter((zone) => zone.from.length > 0);
const leafZones = Object.entries(LEAF_IMPORTS).map(([unit, allowed]) => {
  const row = SERVER_LAYER_ROWS.findIndex((members) => members.includes(unit));
  const refused = SERVER_LAYER_ROWS.slice(row + 1)
    .flat()
    .filter((other) => !allowed.includes(other));
  return {
    target: serverPath(unit),
    from: refused.map(serverPath),
    message: `src-server/${unit} is the ground floor: below its row it imports only ${allowed.join(' and ')}.`,
  };
});
/**
 * firewall/'s sub-domains, in the same top-down order (docs/architecture.md). Within firewall/ the rows
 * hold as above, and a sub-folder is reached only through its index.ts (its public face), from
 * anywhere outside it: its other files are its own.
 */
export const FIREWALL_LAYER_ROWS = [
  ['firewall-service.ts', 'address-lookup.ts'],
  ['export'],
  ['feeds', 'transfer', 'intrusion'],
  ['snapshot'],
  ['bans'],
  ['filters'],
  ['model'],
];
const firewallPath = (unit) => `./src-server/firewall/${unit}`;
const firewallRowZones = FIREWALL_LAYER_ROWS.flatMap((row, index) => {
  const above = FIREWALL_LAYER_ROWS.slice(0, index).flat();
  const below = FIREWALL_LAYER_ROWS.slice(index + 1).flat();
  return row.map((unit) => ({
    target: firewallPath(unit),
    from: [...above, ...row.filter((other) => other !== unit)].map(firewallPath),
    message:
      `src-server/firewall/${unit} is in row ${index + 1} of firewall/'s sub-domains (eslint.config.js, ` +
      `docs/architecture.md): it imports only its own folder and the rows below (${below.join(', ') || 'none'}).`,
  }));
}).filter((zone) => zone.from.length > 0);
const FIREWALL_SUBDOMAINS = FIREWALL_LAYER_ROWS.flat().filter((unit) => !unit.endsWith('.ts'));
const firewallIndexZones = FIREWALL_SUBDOMAINS.map((domain) => ({
  target: [
    ...SERVER_LAYER_ROWS.flat()
      .filter((unit) => unit !== 'firewall')
      .map(serverPath),
    ...FIREWALL_LAYER_ROWS.flat()
      .filter((unit) => unit !== domain)
      .map(firewallPath),
  ],
  from: firewallPath(domain),
  except: ['./index.ts'],
  message: `src-server/firewall/${domain}/ is reached through its index.ts only: import what it exports there.`,
}));
const serverLayerZones = [
  ...rowZones,
  ...leafZones,
  ...firewallRowZones,
  ...firewallIndexZones,
  {
    target: './src-server',
    from: './src-server/test-support',
    message: 'test-support/ is test-only and never ships: only *.test.ts files (and e2e/, bench/) may import it.',
  },
];
/**
 * src-shared/ is read by the server and bundled into the console: plain TypeScript that needs no
 * Node (no node:* or built-in module, no Node globals) and imports nothing of src-server, src-main or
 * src-renderer, only its own files.
 */
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_')).map(escapeRegex);
const sharedIsNodeFree = {
  files: ['src-shared/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(node:.*|(${NODE_BUILTINS.join('|')})(/.*)?)$`,
            message: 'src-shared/ is Node-free: the console bundles it. Keep Node code in src-server/.',
          },
          {
            regex: '^\\.\\./',
            message: 'src-shared/ imports only its own files: never src-server/, src-main/ or src-renderer/.',
          },
        ],
      },
    ],
    'no-restricted-globals': [
      'error',
      ...['process', 'Buffer', 'require', '__dirname', '__filename', 'global', 'setImmediate'].map((name) => ({
        name,
        message: 'src-shared/ is Node-free: the console bundles it.',
      })),
    ],
  },
};

const DOMAIN_FILES = SERVER_DOMAIN.map((folder) => `src-server/${folder}/**/*.ts`);

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'data/', '.tmp/', '.tmp*', 'e2e/screenshots/'] },
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
  typedApiCalls,
  ...featureIsolation,
  sharedIsNodeFree,
  {
    files: ['src-server/**/*.ts'],
    plugins: { 'import-x': importX, server: { rules: { 'no-import-cycle': noTypeCycle, 'table-owner': tableOwner } } },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'server/no-import-cycle': 'error',
      'server/table-owner': 'error',
      'import-x/no-restricted-paths': ['error', { zones: serverLayerZones }],
    },
  },
  {
    // The desktop shell hosts the server through its one entry point, never its parts or test-support.
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src-main',
              from: './src-server',
              except: ['./index.ts'],
              message: 'src-main/ hosts the server through src-server/index.ts (createServer) only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Actions read their input as the declared schema parsed it (ctx.input), never the raw request:
    // the worker hands `ctx.input` (worker/input-check.ts); only the kit reads ctx.body and ctx.query.
    files: ['src-server/resources/**/*.ts', 'resources/modules/**/*.{js,ts}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='ctx'][property.name=/^(body|query)$/]",
          message:
            "Read the parsed input (ctx.input), typed by the declared schema; the raw body and query are the kit's.",
        },
        {
          selector: "VariableDeclarator[init.name='ctx'] > ObjectPattern > Property[key.name=/^(body|query)$/]",
          message:
            "Read the parsed input (ctx.input), typed by the declared schema; the raw body and query are the kit's.",
        },
      ],
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
