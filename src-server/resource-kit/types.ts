import type { z } from 'zod';
import type { ActionResult } from '../wire/envelope.ts';
import type { Db } from '../storage/database.ts';
import type {
  BusEvent,
  Channel,
  CrudOperation,
  HttpVerb,
  Level,
  OperationName,
  SessionContext,
} from '../wire/types.ts';

export type { Channel, CrudOperation, HttpVerb, Level, OperationName };

/** One field of a resource: validation, defaults and visibility all derive from this. */
export interface FieldDef {
  /** Validates a present, sanitised value. */
  schema: z.ZodType;
  required?: boolean;
  /** Applied on create only (SPEC save rule 4); a function is called per record. */
  default?: unknown;
  /** SPEC save rule 1: normalises raw input (trim, "1"/"0" to boolean, ...). */
  sanitize?: (value: unknown) => unknown;
  /** Accepted on write, never returned (secrets). */
  writeOnly?: boolean;
  /** Returned only to callers holding the SENSITIVE level. */
  sensitive?: boolean;
  /** Returned, never written by clients (timestamps, generated ids). */
  readOnly?: boolean;
  /** How the generic store keeps it in SQLite. */
  storage: 'text' | 'integer' | 'boolean' | 'json';
  description?: string;
}

/** A custom method. Its schema types stay literal under `satisfies ResourceDeclaration`, so actions get `z.output` of each. */
export interface CustomMethodDecl<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> {
  verbs: HttpVerb[];
  scope: 'collection' | 'resource';
  level: Level;
  /** Public methods skip authentication (an invalid token is ignored). */
  public?: boolean;
  /** Answered on the web thread by a route of its own (http/auth-routes.ts): no worker action exists. */
  webThread?: true;
  description?: string;
  /**
   * Body (for GET: query string) schema. The worker checks it before the action runs (422 naming
   * the field); OpenAPI documents it. Use NO_QUERY or NO_BODY (resources/contract.ts) when it takes nothing.
   */
  input: Input;
  /** The query string's parameters join the body (a text/plain body carries one field: importBans' `content`). */
  queryJoinsBody?: true;
  /** Body fields the audit log records by their size only (a 20 MB ban list). */
  auditAsSize?: string[];
  /**
   * The shape of `data` in a successful answer: OpenAPI documents it; with `checkOutputs` (development,
   * tests) the worker checks every answer against it.
   */
  output: Output;
}

export interface SecurityDecl {
  /** Permission name, `Resource` in `Resource:Action`. */
  permission: string;
  channels: Channel[];
  /** Levels per CRUD operation; defaults: reads READ, writes WRITE. */
  levels?: Partial<Record<CrudOperation, Level>>;
}

/** The one typed description of a v3 resource. Routing, validation, permissions and OpenAPI read it. */
export interface ResourceDeclaration {
  /** Path name: `extensions`, or `module-{slug}/{resource}` for modules. */
  name: string;
  version?: 'v3';
  description: string;
  /** Shown as `processor` in the envelope; defaults to the name. */
  processor?: string;
  /** A singleton (`fail2ban`) is read and written at the collection path and has no ids. */
  kind?: 'collection' | 'singleton';
  security: SecurityDecl;
  /** Name of the id field (collections); it is part of `fields` when clients choose ids. */
  idField?: string;
  fields: Record<string, FieldDef>;
  operations: CrudOperation[];
  customMethods?: Record<string, CustomMethodDecl>;
  /** The list's filter parameters besides limit and offset (documented in OpenAPI, checked by the worker). */
  listQuery?: z.ZodObject;
  /** getRecord's query parameters (openapi: `format`), checked by the worker; none when absent. */
  recordQuery?: z.ZodObject;
  /** The delete's query parameters (firewall: `moveKeysTo`), checked by the worker; none when absent. */
  deleteQuery?: z.ZodObject;
  /** The create's answer (`data`) when it is more than the record (api-keys: plus the new key, shown once). */
  createOutput?: z.ZodType;
  /** Older actions (api-keys) check required fields on every verb, PATCH included. */
  requireOnEveryVerb?: boolean;
}

/** Everything an action sees. It runs in a worker thread. */
export interface ActionContext<Input = unknown> {
  db: Db;
  resource: ResourceDeclaration;
  operation: OperationName;
  verb: HttpVerb;
  id?: string;
  /**
   * The input as its declared schema parsed it (worker/input-check.ts): a custom method's `input`,
   * getList's page and `listQuery`, getRecord's `recordQuery`, delete's `deleteQuery`. A CRUD write's input is its body, which
   * the save rules (save.ts) check field by field.
   */
  input: Input;
  /** The raw request, read only by the kit (save rules, audit); lint refuses it in resources. */
  query: Record<string, string | string[]>;
  /** The raw body, read only by the kit (save rules, audit); lint refuses it in resources. */
  body: unknown;
  /** Filtered request headers (SPEC "Headers forwarded to workers"). */
  headers: Record<string, string>;
  /** Present for Bearer requests only. */
  session: SessionContext | null;
  canReadSensitive: boolean;
  /** Worker identifier reported as `pid`. */
  pid: number;
  now(): number;
  /** Queues an event for the web thread (cache invalidation and the like). */
  emit(event: BusEvent): void;
}

export type ActionHandler<Input = unknown> = (ctx: ActionContext<Input>) => ActionResult | Promise<ActionResult>;

export interface ResourceActions {
  getList?: ActionHandler;
  getRecord?: ActionHandler;
  create?: ActionHandler;
  update?: ActionHandler;
  patch?: ActionHandler;
  delete?: ActionHandler;
  custom?: Record<string, ActionHandler>;
}

export interface ResourceDefinition {
  declaration: ResourceDeclaration;
  actions: ResourceActions;
}

/** `limit` and `offset` as a paged list receives them (contract.ts PAGE_QUERY checked their range). */
export interface PageInput {
  limit?: string;
  offset?: string;
}

type MethodsOf<D> = D extends { customMethods?: infer M } ? NonNullable<M> : never;
type OutputOrNone<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** What a custom method's action receives as `ctx.input`: the output of its declared input schema. */
export type MethodInput<D extends ResourceDeclaration, K extends keyof MethodsOf<D>> = MethodsOf<D>[K] extends {
  input: infer S extends z.ZodType;
}
  ? z.output<S>
  : never;

/** A custom method's action, typed by its declaration. */
export type MethodAction<D extends ResourceDeclaration, K extends keyof MethodsOf<D>> = ActionHandler<
  MethodInput<D, K>
>;

/** getList's input: the page and the declared `listQuery`. */
export type ListInput<D extends ResourceDeclaration> = PageInput &
  (D extends { listQuery: infer Q } ? OutputOrNone<Q> : Record<string, never>);

/** getRecord's input: the declared `recordQuery`, else nothing. */
export type RecordInput<D extends ResourceDeclaration> = D extends { recordQuery: infer Q }
  ? OutputOrNone<Q>
  : Record<string, never>;

/** delete's input: the declared `deleteQuery`, else nothing. */
export type DeleteInput<D extends ResourceDeclaration> = D extends { deleteQuery: infer Q }
  ? OutputOrNone<Q>
  : Record<string, never>;

/** A resource's actions, each typed by what the declaration says it receives. */
export interface TypedActions<D extends ResourceDeclaration> {
  getList?: ActionHandler<ListInput<D>>;
  getRecord?: ActionHandler<RecordInput<D>>;
  create?: ActionHandler;
  update?: ActionHandler;
  patch?: ActionHandler;
  delete?: ActionHandler<DeleteInput<D>>;
  custom?: { [K in keyof MethodsOf<D>]?: MethodAction<D, K> };
}

/** Types a resource's actions by its declaration (declared `satisfies ResourceDeclaration`). */
export function defineActions<D extends ResourceDeclaration>(
  _declaration: D,
  actions: TypedActions<D>,
): ResourceActions {
  // Each handler takes the input its own schema parses; the worker hands exactly that (dispatch.ts).
  return actions as ResourceActions;
}

/** A declaration with its typed actions, as the registry holds them. */
export function defineResource<D extends ResourceDeclaration>(
  declaration: D,
  actions: TypedActions<D>,
): ResourceDefinition {
  return { declaration, actions: defineActions(declaration, actions) };
}
