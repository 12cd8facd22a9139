import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';

// Every lint rule that holds the layers is shown to fire on a deliberate violation, through ESLint's
// own API and the project's own config, on snippets linted as if they sat inside the tree.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(ROOT, 'src-server');
const config = (await import(new URL('../eslint.config.js', import.meta.url).href)) as {
  SERVER_LAYER_ROWS: string[][];
  FIREWALL_LAYER_ROWS: string[][];
};
const ROWS = config.SERVER_LAYER_ROWS;
const FIREWALL_ROWS = config.FIREWALL_LAYER_ROWS;
const FIREWALL = join(SERVER, 'firewall');
/** What a firewall unit shows the others: a root file itself, a sub-domain its index.ts. */
const firewallFace = (unit: string) => `src-server/firewall/${unit.endsWith('.ts') ? unit : `${unit}/index.ts`}`;
const eslint = new ESLint({ cwd: ROOT });

async function lint(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result!.messages;
}
const ruleIds = (messages: Linter.LintMessage[]) => messages.map((m) => m.ruleId);
const isFile = (unit: string) => unit.endsWith('.ts');

/** A real, non-test file of a row member, so the import resolves. */
function realFileOf(unit: string): string {
  if (isFile(unit)) return `src-server/${unit}`;
  const name = readdirSync(join(SERVER, unit))
    .filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.test.ts'))
    .sort()[0];
  assert.ok(name, `src-server/${unit} has a source file`);
  return `src-server/${unit}/${name}`;
}
/** Where a probe snippet "lives": a new file inside a folder, or the file itself. */
const probeIn = (unit: string) => (isFile(unit) ? `src-server/${unit}` : `src-server/${unit}/lint-probe.ts`);
function importFrom(probe: string, target: string): string {
  const spec = relative(join(ROOT, probe, '..'), join(ROOT, target));
  return `import * as probe from '${spec.startsWith('.') ? spec : `./${spec}`}';\nexport const used = probe;\n`;
}
const productionFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
/** The relative imports of each production file under `root` (tests and test-support aside), read from disk. */
function productionImports(root: string): Array<{ file: string; target: string }> {
  const imports: Array<{ file: string; target: string }> = [];
  for (const file of productionFiles(root).filter((path) => !path.startsWith(join(SERVER, 'test-support')))) {
    for (const match of readFileSync(file, 'utf8').matchAll(
      /(?:from\s+|import\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g,
    )) {
      imports.push({ file, target: join(file, '..', match[1]!) });
    }
  }
  return imports;
}
/** Unit-level import edges under `base` (a folder's first path segment, or a file of `base`) of the files under `root`. */
function edgesUnder(base: string, root = SERVER): Array<{ from: string; to: string; file: string }> {
  const unitOf = (path: string) => relative(base, path).split('/')[0]!;
  return productionImports(root)
    .filter(({ file, target }) => file.startsWith(base + '/') && target.startsWith(base + '/'))
    .map(({ file, target }) => ({ from: unitOf(file), to: unitOf(target), file: relative(ROOT, file) }))
    .filter((edge) => edge.from !== edge.to);
}
/** Folder-level import edges of the production files (tests and test-support aside), read from disk. */
const productionEdges = () => edgesUnder(SERVER);

const layerMessages = (messages: Linter.LintMessage[], unit: string) =>
  messages.filter(
    (m) => m.ruleId === 'import-x/no-restricted-paths' && m.message.includes(`src-server/${unit} is in row`),
  );

describe('lint holds the layers', { timeout: 600_000 }, () => {
  it('every folder and file of src-server/ is in exactly one row (test-support and tests aside)', () => {
    const units = readdirSync(SERVER)
      .filter((entry) => entry !== 'test-support' && !entry.endsWith('.test.ts'))
      .filter((entry) => statSync(join(SERVER, entry)).isDirectory() || entry.endsWith('.ts'));
    const listed = ROWS.flat();
    assert.deepEqual([...listed].sort(), [...new Set(listed)].sort(), 'no unit is in two rows');
    assert.deepEqual([...units].sort(), [...listed].sort());
  });

  it('the real imports: 0 folder pairs import each other, 0 imports go up the rows', () => {
    const rowOf = new Map(ROWS.flatMap((row, index) => row.map((unit) => [unit, index] as const)));
    const edges = productionEdges();
    assert.ok(edges.length > 100, 'the scan sees the imports');
    const pairs = new Set(edges.map((e) => `${e.from} -> ${e.to}`));
    const mutual = [...pairs].filter((pair) => pairs.has(pair.split(' -> ').reverse().join(' -> ')));
    assert.deepEqual(mutual, []);
    const upward = edges.filter((e) => rowOf.get(e.to)! <= rowOf.get(e.from)!);
    assert.deepEqual(upward, []);
  });

  it('every folder and file of firewall/ is in exactly one of its rows (tests aside)', () => {
    const units = readdirSync(FIREWALL)
      .filter((entry) => !entry.endsWith('.test.ts'))
      .filter((entry) => statSync(join(FIREWALL, entry)).isDirectory() || entry.endsWith('.ts'));
    const listed = FIREWALL_ROWS.flat();
    assert.deepEqual([...listed].sort(), [...new Set(listed)].sort(), 'no unit is in two rows');
    assert.deepEqual([...units].sort(), [...listed].sort());
  });

  it('the real imports of firewall/: 0 sub-domain pairs import each other, 0 go up, only through an index.ts', () => {
    const rowOf = new Map(FIREWALL_ROWS.flatMap((row, index) => row.map((unit) => [unit, index] as const)));
    const edges = edgesUnder(FIREWALL, FIREWALL);
    assert.ok(edges.length > 30, 'the scan sees the imports');
    const upward = edges.filter((e) => rowOf.get(e.to)! <= rowOf.get(e.from)!);
    assert.deepEqual(upward, []);
    const domains = FIREWALL_ROWS.flat().filter((unit) => !isFile(unit));
    const past = productionImports(SERVER).filter(({ file, target }) =>
      domains.some((domain) => {
        const folder = join(FIREWALL, domain);
        return target.startsWith(folder + '/') && !file.startsWith(folder + '/') && target !== join(folder, 'index.ts');
      }),
    );
    assert.deepEqual(past, []);
  });

  for (const [index, row] of FIREWALL_ROWS.entries()) {
    if (index === 0) continue;
    for (const unit of row) {
      it(`firewall row ${index + 1}: firewall/${unit} may not import the row above (${FIREWALL_ROWS[index - 1]![0]})`, async () => {
        const probe = probeIn(`firewall/${unit}`);
        const messages = await lint(probe, importFrom(probe, realFileOf(`firewall/${FIREWALL_ROWS[index - 1]![0]!}`)));
        assert.equal(layerMessages(messages, `firewall/${unit}`).length, 1, JSON.stringify(messages));
      });
    }
    if (row.length > 1) {
      it(`firewall row ${index + 1}: ${row[0]} may not import ${row[1]}, a member of its own row`, async () => {
        const probe = probeIn(`firewall/${row[0]!}`);
        const messages = await lint(probe, importFrom(probe, firewallFace(row[1]!)));
        assert.equal(layerMessages(messages, `firewall/${row[0]!}`).length, 1, JSON.stringify(messages));
      });
    }
  }

  it('a firewall sub-domain is reached only through its index.ts, from outside it and from its neighbours', async () => {
    const through = (messages: Linter.LintMessage[]) =>
      messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths' && m.message.includes('through its index.ts'));
    for (const probe of ['src-server/resources/firewall/lint-probe.ts', 'src-server/firewall/export/lint-probe.ts']) {
      const past = await lint(probe, importFrom(probe, 'src-server/firewall/bans/ban-store.ts'));
      assert.equal(through(past).length, 1, JSON.stringify(past));
      assert.deepEqual(await lint(probe, importFrom(probe, 'src-server/firewall/bans/index.ts')), []);
    }
    const own = 'src-server/firewall/bans/lint-probe.ts';
    assert.deepEqual(await lint(own, importFrom(own, 'src-server/firewall/bans/ban-store.ts')), []);
  });

  it('a clean file passes: downward imports only', async () => {
    const code =
      "import { ok } from '../resource-kit/results.ts';\nimport { statement } from '../storage/database.ts';\n" +
      'export const used = [ok, statement];\n';
    assert.deepEqual(await lint('src-server/resources/lint-probe.ts', code), []);
  });

  for (const [index, row] of ROWS.entries()) {
    if (index === 0) continue;
    for (const unit of row) {
      it(`row ${index + 1}: src-server/${unit} may not import the row above (${ROWS[index - 1]![0]})`, async () => {
        const probe = probeIn(unit);
        const messages = await lint(probe, importFrom(probe, realFileOf(ROWS[index - 1]![0]!)));
        assert.equal(layerMessages(messages, unit).length, 1, JSON.stringify(messages));
      });
    }
    if (row.length > 1) {
      it(`row ${index + 1}: ${row[0]} may not import ${row[1]}, a member of its own row`, async () => {
        const probe = probeIn(row[0]!);
        const messages = await lint(probe, importFrom(probe, realFileOf(row[1]!)));
        assert.equal(layerMessages(messages, row[0]!).length, 1, JSON.stringify(messages));
      });
    }
  }

  it('storage/ imports nothing below its row but net/ and clock.ts', async () => {
    const refused = await lint(
      'src-server/storage/lint-probe.ts',
      importFrom('src-server/storage/lint-probe.ts', realFileOf('wire')),
    );
    assert.ok(refused.some((m) => m.ruleId === 'import-x/no-restricted-paths' && m.message.includes('ground floor')));
    const allowed = await lint(
      'src-server/storage/lint-probe.ts',
      importFrom('src-server/storage/lint-probe.ts', realFileOf('net')),
    );
    assert.deepEqual(allowed, []);
  });

  it('only tests import test-support/', async () => {
    const code = "import { request } from '../test-support/http.ts';\nexport const used = request;\n";
    const messages = await lint('src-server/http/lint-probe.ts', code);
    assert.ok(messages.some((m) => m.ruleId === 'import-x/no-restricted-paths' && m.message.includes('test-support')));
    assert.deepEqual(await lint('src-server/http/lint-probe.test.ts', code), []);
  });

  it('the domain never imports Koa; the HTTP layer may', async () => {
    const code = "import Koa from 'koa';\nexport const used = Koa;\n";
    assert.deepEqual(ruleIds(await lint('src-server/firewall/lint-probe.ts', code)), ['no-restricted-imports']);
    assert.deepEqual(await lint('src-server/http/lint-probe.ts', code), []);
  });

  it('no import cycle: a value cycle fires both cycle rules, a type-only one server/no-import-cycle', async () => {
    // storage/settings.ts imported back by firewall/filters/fail2ban-settings.ts, which imports it with a value import.
    const value = ruleIds(
      await lint(
        'src-server/storage/settings.ts',
        "import { FAIL2BAN_SETTING_KEY } from '../firewall/filters/index.ts';\nexport const used = FAIL2BAN_SETTING_KEY;\n",
      ),
    );
    assert.ok(value.includes('import-x/no-cycle'), value.join());
    assert.ok(value.includes('server/no-import-cycle'), value.join());
    const typeOnly = ruleIds(
      await lint(
        'src-server/storage/settings.ts',
        "import type * as F from '../firewall/filters/index.ts';\nexport type Used = typeof F;\n",
      ),
    );
    assert.ok(typeOnly.includes('server/no-import-cycle'), typeOnly.join());
    assert.ok(!typeOnly.includes('import-x/no-cycle'), typeOnly.join());
  });

  it('src-main/ reaches the server only through src-server/index.ts', async () => {
    const refused = await lint(
      'src-main/lint-probe.ts',
      importFrom('src-main/lint-probe.ts', 'src-server/test-support/http.ts'),
    );
    assert.deepEqual(ruleIds(refused), ['import-x/no-restricted-paths']);
    assert.deepEqual(
      await lint('src-main/lint-probe.ts', importFrom('src-main/lint-probe.ts', 'src-server/index.ts')),
      [],
    );
  });

  it('src-shared/ is Node-free: node:fs, path, process.env and imports of src-server/ all fire', async () => {
    const probe = 'src-shared/lint-probe.ts';
    const refused: Array<[string, string, string]> = [
      [
        "import { readFileSync } from 'node:fs';\nexport const used = readFileSync;\n",
        'no-restricted-imports',
        'Node-free',
      ],
      ["import { join } from 'path';\nexport const used = join;\n", 'no-restricted-imports', 'Node-free'],
      [importFrom(probe, 'src-server/clock.ts'), 'no-restricted-imports', 'imports only its own files'],
      [importFrom(probe, 'src-renderer/lib/format.ts'), 'no-restricted-imports', 'imports only its own files'],
      ['export const mode = process.env.NODE_ENV;\n', 'no-restricted-globals', 'Node-free'],
    ];
    for (const [code, rule, says] of refused) {
      const messages = await lint(probe, code);
      assert.deepEqual(ruleIds(messages), [rule], `${code}: ${JSON.stringify(messages)}`);
      assert.ok(messages[0]!.message.includes(says), messages[0]!.message);
    }
  });

  it('an action reads ctx.input, never the raw ctx.body or ctx.query (resources and example modules)', async () => {
    const raw = [
      'export const read = (ctx: { body: unknown }) => ctx.body;\n',
      'export const read = (ctx: { query: unknown }) => ctx.query;\n',
      'export const read = (ctx: { body: unknown }) => {\n  const { body } = ctx;\n  return body;\n};\n',
    ];
    for (const code of raw) {
      const messages = await lint('src-server/resources/system/lint-probe.ts', code);
      assert.deepEqual(ruleIds(messages), ['no-restricted-syntax'], code);
      assert.ok(messages[0]!.message.includes('ctx.input'), messages[0]!.message);
    }
    const moduleProbe = await lint(
      'resources/modules/ExampleRoutes/lint-probe.js',
      'export const read = (ctx) => ctx.query;\n',
    );
    assert.deepEqual(ruleIds(moduleProbe), ['no-restricted-syntax']);
    const parsed = 'export const read = (ctx: { input: unknown }) => ctx.input;\n';
    assert.deepEqual(await lint('src-server/resources/system/lint-probe.ts', parsed), []);
  });

  it('a clean src-shared/ file passes: plain TypeScript and its own files', async () => {
    const code =
      "import { BAN_CATEGORIES } from './categories.ts';\nimport type { Answer } from './contract/types.ts';\n" +
      "export type Used = Answer<'system.getInfo'>;\nexport const used = BAN_CATEGORIES.length;\n";
    assert.deepEqual(await lint('src-shared/lint-probe.ts', code), []);
  });

  it('renderer features never import each other', async () => {
    const features = readdirSync(join(ROOT, 'src-renderer/features')).sort();
    const [mine, other] = [features[0]!, features[1]!];
    const target = readdirSync(join(ROOT, 'src-renderer/features', other, 'api')).sort()[0]!;
    const code = `import * as other from '../../${other}/api/${target}';\nexport const used = other;\n`;
    const probe = `src-renderer/features/${mine}/components/lint-probe.ts`;
    assert.deepEqual(ruleIds(await lint(probe, code)), ['no-restricted-imports']);
  });
});
