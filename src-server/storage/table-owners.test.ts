import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { openTempDb } from '../test-support/temp-db.ts';

// Each table has one owner: eslint-rules/table-owners.js names it, lint (server/table-owner) refuses a
// writer elsewhere as files are edited, and this test holds the map to the migrations and the tree.
interface SqlUses {
  write: Set<string>;
  read: Set<string>;
  lowercase: boolean;
  dynamic: boolean;
}
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'src-server');
const rule = (await import(new URL('../../eslint-rules/table-owners.js', import.meta.url).href)) as {
  TABLE_OWNERS: Record<string, { owners: string[]; strict?: boolean }>;
  sqlUsesIn(text: string): SqlUses;
  ownerProblems(file: string, uses: SqlUses): string[];
  ownedFile(file: string): boolean;
};
const { TABLE_OWNERS, sqlUsesIn, ownerProblems, ownedFile } = rule;

/** The tables a fresh database has after every migration (SQLite's own and the migration ledger aside). */
function migratedTables(): string[] {
  const temp = openTempDb('pbx-owners-');
  try {
    return (
      temp.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .pluck()
        .all() as string[]
    )
      .filter((name) => name !== 'schema_migrations')
      .sort();
  } finally {
    temp.dispose();
  }
}

/** Tables the map does not name. */
const unnamed = (tables: string[]) => tables.filter((table) => !(table in TABLE_OWNERS));

/** A file's text with its comments blanked and its strings kept (a `//` inside a string is no comment). */
function withoutComments(source: string): string {
  return source.replace(
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g,
    (token) => (token.startsWith('//') || token.startsWith('/*') ? ' ' : token),
  );
}

/** Every server file under the rule, relative to src-server/ with /. */
function ownedFiles(dir = SERVER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ownedFiles(path);
    const file = relative(SERVER, path).split('\\').join('/');
    return ownedFile(file) ? [file] : [];
  });
}

const scan = () =>
  ownedFiles().map((file) => ({
    file,
    uses: sqlUsesIn(withoutComments(readFileSync(join(SERVER, file), 'utf8'))),
  }));

describe('each table has one owner', { timeout: 600_000 }, () => {
  it('every table the migrations create is named in the map, and the map names no other', () => {
    const tables = migratedTables();
    assert.ok(tables.includes('firewall_bans') && tables.includes('api_keys'), tables.join());
    assert.deepEqual(unnamed(tables), []);
    assert.deepEqual(Object.keys(TABLE_OWNERS).sort(), tables);
  });

  it('a table the map does not name is caught', () => {
    assert.deepEqual(unnamed(['firewall_bans', 'a_table_nobody_made']), ['a_table_nobody_made']);
  });

  it('every owner exists (a file, or a folder ending in /) and runs SQL on its table', () => {
    const uses = scan();
    for (const [table, { owners }] of Object.entries(TABLE_OWNERS)) {
      for (const owner of owners) {
        const path = join(SERVER, owner);
        assert.ok(existsSync(path), `${table}: src-server/${owner} exists`);
        assert.equal(statSync(path).isDirectory(), owner.endsWith('/'), `${table}: ${owner} (folders end in /)`);
      }
      const inOwner = uses.filter(({ file }) =>
        owners.some((owner) => (owner.endsWith('/') ? file.startsWith(owner) : file === owner)),
      );
      assert.ok(
        inOwner.some(({ uses: u }) => u.write.has(table) || u.read.has(table)),
        `${table}: some file of ${owners.join(', ')} names it in SQL`,
      );
    }
  });

  it('the tree: no writer outside its owner, no reader of api_keys or firewall_bans outside theirs', () => {
    const problems = scan().flatMap(({ file, uses }) => ownerProblems(file, uses));
    assert.deepEqual(problems, []);
    const holders = (table: string) =>
      scan()
        .filter(({ uses }) => uses.write.has(table) || uses.read.has(table))
        .map(({ file }) => file)
        .sort();
    assert.deepEqual(holders('api_keys'), ['firewall/export/bouncer-keys.ts', 'storage/api-key-rows.ts']);
    assert.deepEqual(holders('firewall_bans'), ['firewall/bans/ban-queries.ts', 'firewall/bans/ban-store.ts']);
    const sqlInResources = ownedFiles()
      .filter((file) => file.startsWith('resources/'))
      .filter((file) => /\.(prepare|exec)\(\s*['"`]|\bstatement\(/.test(readFileSync(join(SERVER, file), 'utf8')));
    assert.deepEqual(sqlInResources, []);
  });

  it('the parser: a writer elsewhere, a strict reader elsewhere, the kit table, lowercase and dynamic SQL fail', () => {
    const problems = (file: string, text: string) => ownerProblems(file, sqlUsesIn(text));
    assert.equal(problems('resources/system/actions.ts', 'UPDATE settings SET value = ? WHERE key = ?').length, 1);
    assert.equal(problems('firewall/feeds/x.ts', 'INSERT OR REPLACE INTO bouncer_hosts (ip) VALUES (?)').length, 1);
    assert.equal(problems('firewall/feeds/x.ts', 'SELECT ip FROM firewall_bans WHERE lifted_at IS NULL').length, 1);
    assert.equal(problems('audit/store.ts', 'SELECT k.id FROM bouncer_cursors c JOIN api_keys k').length, 1);
    assert.equal(problems('resources/x/actions.ts', "crudActions(decl, { table: 'users' })").length, 1);
    assert.equal(problems('peers/x.ts', 'delete from settings where key = ?').length, 1);
    assert.equal(problems('peers/x.ts', 'DELETE FROM ${table} WHERE id = ?').length, 1);
    // Reads of a table that is not strict are anyone's; the owner writes its own.
    assert.deepEqual(problems('resources/system/actions.ts', 'SELECT value FROM settings WHERE key = ?'), []);
    assert.deepEqual(problems('firewall/bans/ban-store.ts', 'INSERT INTO firewall_bans (ip) VALUES (?)'), []);
    assert.deepEqual(problems('firewall/export/cursor-store.ts', 'DELETE FROM bouncer_cursors WHERE key_id = ?'), []);
    assert.deepEqual(problems('resource-kit/crud.ts', 'SELECT * FROM ${table} WHERE id = ?'), []);
  });

  it('lint fires server/table-owner on a snippet as if it sat in the tree, and passes the owner', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const lint = async (file: string, code: string) =>
      (await eslint.lintText(code, { filePath: join(ROOT, file) }))[0]!.messages.map((m) => m.ruleId);
    const db = "import type { Db } from '../../storage/database.ts';\n";
    const read = `${db}export const ids = (db: Db) => db.prepare('SELECT id ' + 'FROM api_keys').all();\n`;
    assert.deepEqual(await lint('src-server/resources/firewall/lint-probe.ts', read), ['server/table-owner']);
    const write = `${db}export const wipe = (db: Db) => db.prepare(\`DELETE FROM audit_log WHERE at < ?\`).run(0);\n`;
    assert.deepEqual(await lint('src-server/firewall/bans/lint-probe.ts', write), ['server/table-owner']);
    const own =
      "import type { Db } from './database.ts';\nexport const ids = (db: Db) => db.prepare('SELECT id FROM api_keys').all();\n";
    assert.deepEqual(await lint('src-server/storage/api-key-rows.ts', own), []);
    assert.deepEqual(await lint('src-server/resources/firewall/lint-probe.test.ts', read), []);
  });
});
