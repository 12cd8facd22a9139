// The query parameter names the committed contract lists for an operation, from its generated
// operation map (src-shared/contract/operations.ts); contract-drift.test.ts keeps the map equal to
// what the server's declarations generate.
import { OPERATIONS } from '#shared/contract/operations.ts';

/** The names in a query the console sent that the contract does not list for the operation (none, when in step). */
export function namesNotInContract(operationId: keyof typeof OPERATIONS, query: URLSearchParams): string[] {
  const listed: readonly string[] = OPERATIONS[operationId].query;
  return [...query.keys()].filter((name) => !listed.includes(name));
}
