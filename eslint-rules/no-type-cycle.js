import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * `server/no-import-cycle`: no import cycle through src-server, type-only imports included.
 * import-x/no-cycle skips `import type`, and the server's last cycles hung on exactly those (a
 * feature importing a type from the registry that imported it). The graph of the other files is
 * read from disk once per lint run; the file being linted contributes its own AST's imports.
 */
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

let diskGraph;
function filesUnder(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, out);
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}
function target(from, spec) {
  const path = resolve(dirname(from), spec);
  return existsSync(path) && statSync(path).isFile() ? path : undefined;
}
function graphOf(root) {
  if (diskGraph?.root === root) return diskGraph.edges;
  const edges = new Map();
  for (const file of filesUnder(root)) {
    const out = new Set();
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = target(file, match[1] ?? match[2]);
      if (to) out.add(to);
    }
    edges.set(file, out);
  }
  diskGraph = { root, edges };
  return edges;
}
function reaches(edges, from, goal) {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length) {
    const file = stack.pop();
    if (file === goal) return true;
    for (const next of edges.get(file) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return false;
}

export default {
  meta: {
    type: 'problem',
    messages: {
      cycle: 'Import cycle (type imports count): {{path}} imports this file back, directly or through others.',
    },
    schema: [],
  },
  create(context) {
    const file = resolve(context.physicalFilename);
    const rootIndex = file.lastIndexOf('/src-server/');
    if (rootIndex < 0) return {};
    const edges = graphOf(file.slice(0, rootIndex + '/src-server'.length));
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = target(file, spec);
      if (to && to !== file && reaches(edges, to, file))
        context.report({ node, messageId: 'cycle', data: { path: spec } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
