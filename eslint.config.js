import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
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
  const others = RENDERER_FEATURES.filter((f) => f !== feature).map(escapeRegex).join('|');
  return {
    files: [`src-renderer/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\./)?(\\.\\./)+(features/)?(${others})/`,
              message: `Renderer features never import each other: compose them in src-renderer/app/ (pass what "${feature}" needs as props).`,
            },
          ],
        },
      ],
    },
  };
});

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
);
