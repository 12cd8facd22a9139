// The query parameter names the committed contract (src-shared/contract/openapi.d.ts) lists for an
// operation, read from its text: the types have no run-time form, and contract-drift.test.ts keeps
// the file equal to what the server's declarations generate.
import { readFileSync } from 'node:fs';

const CONTRACT = new URL('../../src-shared/contract/openapi.d.ts', import.meta.url);

export function contractQueryNames(operationId: string): string[] {
  const text = readFileSync(CONTRACT, 'utf8');
  const operations = text.slice(text.indexOf('export interface operations {'));
  const start = operations.indexOf(`\n  '${operationId}': {\n`);
  if (start < 0) throw new Error(`${operationId} is not an operation of the contract`);
  // The operation's `query?: {` block, up to its closing brace at the same indent.
  const block = /\n {4}parameters: \{\n {6}query\?: (?:never;|\{\n([\s\S]*?)\n {6}\};)/.exec(operations.slice(start));
  if (!block) throw new Error(`${operationId} has no query parameters block`);
  return [...(block[1] ?? '').matchAll(/^ {8}'?([\w-]+)'?\?:/gm)].map((match) => match[1]!);
}

/** The names in a query the console sent that the contract does not list for the operation (none, when in step). */
export function namesNotInContract(operationId: string, query: URLSearchParams): string[] {
  const listed = contractQueryNames(operationId);
  return [...query.keys()].filter((name) => !listed.includes(name));
}
