// The console's one API client, keyed by operation: a call names an operationId of the generated
// contract, whose map (src-shared/contract/operations.ts) gives the method and path and whose types
// give the path parameters, query, body and answer. No caller writes a path or picks a type by hand.
// A wrapper of our own rather than openapi-fetch: the envelope, the 401 -> login flow, the error
// notifications and the connection state are ours (api-transport.ts), and openapi-fetch would type
// the whole envelope where every caller wants `data`.
import { OPERATIONS } from '#shared/contract/operations.ts';
import type { Body, BodyNeed, PathParams, Query, Result } from '#shared/contract/types.ts';
import { apiRequest, type Notices, type Pagination, type RequestOptions } from './api-transport.ts';

export { ApiError, type Notices, type Pagination } from './api-transport.ts';

/** An operation the console can call: every v3 operation of the contract (HEAD apart). */
export type OperationId = keyof typeof OPERATIONS;

/** A query value as the caller holds it: free text also as a number (a page, a window), enums as listed. */
type QueryValue<V> = V extends string ? (string extends V ? string | number : V) : V;
/** The operation's query parameters, each optional; the contract's names only. */
export type QueryOf<Op extends OperationId> = { [K in keyof Query<Op>]?: QueryValue<Query<Op>[K]> };

type PathPart<Op extends OperationId> = [PathParams<Op>] extends [never]
  ? { path?: never }
  : { path: { [K in keyof PathParams<Op>]: string | number } };
type QueryPart<Op extends OperationId> = [Query<Op>] extends [never] ? { query?: never } : { query?: QueryOf<Op> };
type BodyPart<Op extends OperationId> = {
  none: { body?: never };
  optional: { body?: Body<Op> };
  required: { body: Body<Op> };
}[BodyNeed<Op>];

/** What a call sends besides its operation: path parameters, query and body as the contract names them. */
export type OperationInput<Op extends OperationId> = Pick<RequestOptions, 'quiet' | 'anonymous'> &
  PathPart<Op> &
  QueryPart<Op> &
  BodyPart<Op>;

/** The input is optional when the operation needs nothing (no path parameter, no required body). */
type InputArgs<Op extends OperationId> =
  object extends OperationInput<Op> ? [input?: OperationInput<Op>] : [input: OperationInput<Op>];

interface LooseInput {
  path?: Record<string, string | number>;
  query?: RequestOptions['query'];
  body?: unknown;
  quiet?: boolean;
  anonymous?: boolean;
}

/** Calls an operation and returns the envelope's data (its `Result` in the contract), pagination and notices. */
export function requestOperation<Op extends OperationId>(
  operationId: Op,
  ...[input]: InputArgs<Op>
): Promise<{ data: Result<Op>; pagination?: Pagination; notices: Notices }> {
  const { method, path } = OPERATIONS[operationId];
  const { path: params = {}, query, body, ...flags } = (input ?? {}) as LooseInput;
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  // A POST without a body still sends `{}`: the server reads a JSON object.
  return apiRequest<Result<Op>>(filled, {
    ...flags,
    method,
    query,
    body: body ?? (method === 'POST' ? {} : undefined),
  });
}

/** Calls an operation and returns its answer's `data`. */
export async function callOperation<Op extends OperationId>(
  operationId: Op,
  ...input: InputArgs<Op>
): Promise<Result<Op>> {
  return (await requestOperation(operationId, ...input)).data;
}

/** One item of a list operation's result. */
export type ResultItem<Op extends OperationId> = Result<Op> extends readonly (infer T)[] ? T : never;

/** Calls a list operation: its items and the pagination (the total over every page). */
export async function listOperation<Op extends OperationId>(operationId: Op, ...input: InputArgs<Op>) {
  const { data, pagination } = await requestOperation(operationId, ...input);
  return { items: data as ResultItem<Op>[], pagination };
}
