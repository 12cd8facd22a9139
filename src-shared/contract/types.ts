/**
 * Type accessors over the generated contract (openapi.d.ts): they pick a wire type out of the
 * OpenAPI document's operations and schemas, and define none of their own. The console's API types
 * are aliases built with these, so a change of the server's declarations reaches the console's
 * typecheck.
 */
import type { components, operations, Readable, Writable } from './openapi.d.ts';

type OperationId = keyof operations;

type SuccessOf<Responses> = Responses extends { 200: infer A } ? A : Responses extends { 201: infer A } ? A : never;
type JsonOf<Part> = Part extends { content: { 'application/json': infer Body } } ? Body : never;
type DataOf<Envelope> = Envelope extends { data?: infer Data } ? Data : never;

/** `data` of the operation's success answer (200, or 201 for a create), without write-only fields. */
export type Answer<Op extends OperationId> = Readable<
  NonNullable<DataOf<JsonOf<SuccessOf<operations[Op]['responses']>>>>
>;

/** One item of a list answer (`getList`, or a custom method answering an array). */
export type Item<Op extends OperationId> = Answer<Op> extends readonly (infer T)[] ? T : never;

/** The operation's JSON request body, without read-only fields. */
export type Body<Op extends OperationId> = Writable<JsonOf<NonNullable<operations[Op]['requestBody']>>>;

/** The operation's query parameters, each optional as in a query string (`never` keys: it takes none). */
export type Query<Op extends OperationId> = NonNullable<operations[Op]['parameters']['query']>;

/** The operation's path parameters (`never`: it takes none). */
export type PathParams<Op extends OperationId> = NonNullable<operations[Op]['parameters']['path']>;

/** Whether the operation takes a JSON body: none, an optional one, or a required one. */
export type BodyNeed<Op extends OperationId> = [NonNullable<operations[Op]['requestBody']>] extends [never]
  ? 'none'
  : undefined extends operations[Op]['requestBody']
    ? 'optional'
    : 'required';

/** A named schema of the document as read (a resource's record: `Firewall`, `ApiKeys`...). */
export type Schema<Name extends keyof components['schemas']> = Readable<components['schemas'][Name]>;

/**
 * A record as the server reads it back: the CRUD actions answer every field that is not write-only,
 * so each readable field is present (the document's record schema also serves the write bodies,
 * where they are optional).
 */
export type Stored<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

/** The CRUD methods: each answers the record (or a list of them) with every readable field. */
type CrudMethod = 'getList' | 'getRecord' | 'create' | 'update' | 'patch';

/**
 * What a call of the operation resolves to (the console's typed client): its `data`, with every
 * readable field present in a CRUD answer (`Stored`), as the server answers them.
 */
export type Result<Op extends OperationId> = Op extends `${string}.${CrudMethod}`
  ? Answer<Op> extends readonly (infer T)[]
    ? Stored<T>[]
    : Stored<Answer<Op>>
  : Answer<Op>;

/** A resource's record as read back: every readable field present. */
export type RecordOf<Name extends keyof components['schemas']> = Stored<Schema<Name>>;
