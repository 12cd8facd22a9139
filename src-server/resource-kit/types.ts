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

export interface CustomMethodDecl {
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
  input: z.ZodType;
  /** The shape of `data` in a successful answer: OpenAPI documents it, tests check real answers against it. */
  output: z.ZodType;
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
  /** The list's filter parameters besides limit and offset (documented in OpenAPI). */
  listQuery?: z.ZodType;
  /** The create's answer (`data`) when it is more than the record (api-keys: plus the new key, shown once). */
  createOutput?: z.ZodType;
  /** Older actions (api-keys) check required fields on every verb, PATCH included. */
  requireOnEveryVerb?: boolean;
}

/** Everything an action sees. It runs in a worker thread. */
export interface ActionContext {
  db: Db;
  resource: ResourceDeclaration;
  operation: OperationName;
  verb: HttpVerb;
  id?: string;
  query: Record<string, string | string[]>;
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

export type ActionHandler = (ctx: ActionContext) => ActionResult | Promise<ActionResult>;

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

/** Identity helper that keeps literal types and documents intent at the definition site. */
export function defineResource(declaration: ResourceDeclaration, actions: ResourceActions): ResourceDefinition {
  return { declaration, actions };
}
