import { relative, resolve, sep } from 'node:path';

/**
 * `server/table-owner`: each table of the database has one owner (a file or a folder of src-server/),
 * and only the owner writes it (INSERT, UPDATE, DELETE, REPLACE). For `strict` tables (API keys,
 * bans) only the owners read it too: everyone else calls the functions the owner exports.
 * Migrations, tests and test-support are outside the rule. src-server/storage/table-owners.test.ts
 * checks that every table the migrations create is named here, and scans the tree with the same
 * parser (docs/architecture.md "Table owners").
 */
export const TABLE_OWNERS = {
  account_flags: { owners: ['firewall/intrusion/account-flags.ts'] },
  ami_link: { owners: ['peers/peer-state-store.ts'] },
  api_key_sources: { owners: ['storage/api-key-rows.ts'] },
  api_key_resyncs: { owners: ['firewall/export/key-resyncs.ts'] },
  api_keys: { owners: ['storage/api-key-rows.ts', 'firewall/export/bouncer-keys.ts'], strict: true },
  audit_log: { owners: ['audit/store.ts'] },
  auth_sessions: { owners: ['auth/login-sessions.ts'] },
  ban_import_journal: { owners: ['firewall/bans/'] },
  bouncer_cursors: { owners: ['firewall/export/'] },
  bouncer_decisions: { owners: ['firewall/snapshot/'] },
  bouncer_hosts: { owners: ['firewall/export/'] },
  bouncer_rejections: { owners: ['firewall/export/'] },
  bouncer_state: { owners: ['firewall/snapshot/'] },
  crowdsec_link_state: { owners: ['upstream/'] },
  crowdsec_push_queue: { owners: ['upstream/'] },
  crowdsec_pushed: { owners: ['upstream/'] },
  crowdsec_share_runs: { owners: ['upstream/'] },
  crowdsec_shared_filters: { owners: ['upstream/'] },
  crowdsec_upstream_decisions: { owners: ['upstream/'] },
  // Written by the resource kit's generic CRUD (resource-kit/crud.ts) over the table its resource names.
  // The configuration import replaces them all (peers/extension-rows.ts: no SQL in resources/).
  extensions: { owners: ['resources/extensions/', 'peers/extension-rows.ts'] },
  failed_jobs: { owners: ['storage/failed-jobs.ts'] },
  firewall_bans: { owners: ['firewall/bans/ban-store.ts', 'firewall/bans/ban-queries.ts'], strict: true },
  // Written by the resource kit's generic CRUD; a send's last result by the channel store.
  notification_channels: { owners: ['resources/notification-channels/', 'notifications/channel-store.ts'] },
  notification_rules: { owners: ['resources/notification-rules/'] },
  health_checks: { owners: ['health/health-store.ts'] },
  key_delivery_state: { owners: ['firewall/export/'] },
  network_filters: { owners: ['storage/network-filter-rows.ts'] },
  peer_detail: { owners: ['peers/peer-state-store.ts'] },
  peer_state: { owners: ['peers/peer-state-store.ts'] },
  providers: { owners: ['resources/providers/'] },
  refresh_tokens: { owners: ['auth/login-sessions.ts'] },
  registered_contacts: { owners: ['firewall/filters/registered-addresses.ts'] },
  registry_state: { owners: ['peers/peer-state-store.ts'] },
  settings: { owners: ['storage/settings.ts'] },
  users: { owners: ['auth/users.ts'] },
  web_sessions: { owners: ['auth/login-sessions.ts'] },
};

/** The one file whose SQL names its table at run time: the kit's CRUD, over the table a resource declares. */
const DYNAMIC_TABLE_FILES = ['resource-kit/crud.ts'];

const NAME = '["`]?([A-Za-z_][A-Za-z0-9_]*)';
const WRITE = new RegExp(
  `\\b(?:INSERT(?:\\s+OR\\s+[A-Z]+)?\\s+INTO|REPLACE\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${NAME}`,
  'g',
);
const READ = new RegExp(`\\b(?:FROM|JOIN)\\s+${NAME}`, 'g');
/** A resource handing its table to the kit's CRUD (`crudActions(declaration, { table: 'x' })`) writes it. */
const KIT_TABLE = /(?:^|[\s{,])table:\s*['"]([a-z_]+)['"]/g;
const LOWERCASE_WRITE = /\b(?:insert\s+into|delete\s+from|replace\s+into)\s+[a-z_]+/;
const DYNAMIC = /\b(?:FROM|JOIN|INTO|UPDATE)\s+\$\{/;

/**
 * What one piece of text (a string literal, a `+` chain of them, a template's text) does to the
 * tables: `write` and `read` name them, `lowercase` and `dynamic` flag SQL the scan cannot read.
 */
export function sqlUsesIn(text) {
  const uses = {
    write: new Set(),
    read: new Set(),
    lowercase: LOWERCASE_WRITE.test(text),
    dynamic: DYNAMIC.test(text),
  };
  for (const match of text.matchAll(WRITE)) uses.write.add(match[1]);
  for (const match of text.matchAll(READ)) uses.read.add(match[1]);
  for (const match of text.matchAll(KIT_TABLE)) uses.write.add(match[1]);
  return uses;
}

/** Whether `file` (relative to src-server/, with /) lies in `owner` (a file, or a folder ending in /). */
const within = (file, owner) => (owner.endsWith('/') ? file.startsWith(owner) : file === owner);

/** The refusals for `file` (relative to src-server/) given what a piece of its text does. */
export function ownerProblems(file, uses) {
  const problems = [];
  if (uses.lowercase)
    problems.push('Write SQL keywords in capitals (INSERT INTO, DELETE FROM): the table-owner scan reads them.');
  if (uses.dynamic && !DYNAMIC_TABLE_FILES.includes(file))
    problems.push('Name the table in the SQL text (not `${…}`): the table-owner scan must see which table it is.');
  for (const [kind, tables] of [
    ['writes', uses.write],
    ['reads', uses.read],
  ]) {
    for (const table of tables) {
      const entry = TABLE_OWNERS[table];
      if (!entry || entry.owners.some((owner) => within(file, owner))) continue;
      if (kind === 'reads' && !entry.strict) continue;
      problems.push(
        `src-server/${file} ${kind} ${table}, whose SQL belongs to ${entry.owners.join(' and ')} ` +
          `(eslint-rules/table-owners.js): call a function the owner exports instead.`,
      );
    }
  }
  return problems;
}

/** Whether a server file is under the rule: not a test, not test-support, not a migration. */
export function ownedFile(file) {
  return (
    file.endsWith('.ts') &&
    !file.endsWith('.test.ts') &&
    !file.startsWith('test-support/') &&
    !file.startsWith('storage/migrations/')
  );
}

/** The text a string node carries: a literal's value, a template's text with `${}` for each expression, a `+` chain's parts. */
function textOf(node) {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : '';
  if (node.type === 'TemplateLiteral')
    return node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join('${}');
  if (node.type === 'BinaryExpression' && node.operator === '+') return textOf(node.left) + textOf(node.right);
  return '\u0000';
}
const isStringPart = (node) =>
  node.type === 'TemplateLiteral' || (node.type === 'Literal' && typeof node.value === 'string');
const insideConcat = (node) => node.parent?.type === 'BinaryExpression' && node.parent.operator === '+';

export default {
  meta: {
    type: 'problem',
    messages: { owner: '{{problem}}' },
    schema: [],
  },
  create(context) {
    const path = resolve(context.physicalFilename);
    const rootIndex = path.lastIndexOf(`${sep}src-server${sep}`);
    if (rootIndex < 0) return {};
    const file = relative(path.slice(0, rootIndex + '/src-server'.length), path)
      .split(sep)
      .join('/');
    if (!ownedFile(file)) return {};
    const check = (node, text = textOf(node)) => {
      for (const problem of ownerProblems(file, sqlUsesIn(text)))
        context.report({ node, messageId: 'owner', data: { problem } });
    };
    return {
      Literal(node) {
        if (isStringPart(node) && !insideConcat(node)) check(node);
      },
      TemplateLiteral(node) {
        if (!insideConcat(node)) check(node);
      },
      BinaryExpression(node) {
        if (node.operator === '+' && !insideConcat(node)) check(node);
      },
      Property(node) {
        // `table: 'extensions'` handed to the kit's CRUD.
        if (node.key.type === 'Identifier' && node.key.name === 'table' && node.value.type === 'Literal')
          check(node, `table: '${String(node.value.value)}'`);
      },
    };
  },
};
