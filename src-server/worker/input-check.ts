import { z } from 'zod';
import { PAGE_QUERY } from '../resource-kit/contract.ts';
import { invalid } from '../resource-kit/results.ts';
import type { ActionContext, ActionHandler, CustomMethodDecl, ResourceDeclaration } from '../resource-kit/types.ts';

/** A repeated query parameter counts by its last value, as the actions read it. */
const lastOfEach = (query: Record<string, string | string[]>): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(query).map(([name, value]) => [name, Array.isArray(value) ? value.at(-1) : value]));

/**
 * One zod issue as the envelope says it: `field: message`, naming the top-level field (the body
 * or query parameter the caller sent). A message that already starts with the field name is kept as
 * written, so declared messages read as the actions always wrote them.
 */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length ? String(issue.path[0]) : '';
  if (!field || [' ', ':', '['].some((after) => issue.message.startsWith(`${field}${after}`))) return issue.message;
  return `${field}: ${issue.message}`;
}

/** Parses `raw` with `schema` and runs the action on the parsed value, or answers 422 naming each field. */
function runWithInput(schema: z.ZodType, raw: unknown, ctx: ActionContext, handler: ActionHandler) {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return handler({ ...ctx, input: parsed.data });
  return invalid([...new Set(parsed.error.issues.map(describeIssue))]);
}

/** GET reads the query string, other verbs the body, or both where the method says so. */
function rawInput(method: CustomMethodDecl, ctx: ActionContext): unknown {
  if (ctx.verb === 'GET') return lastOfEach(ctx.query);
  const body = ctx.body ?? {};
  if (!method.queryJoinsBody) return body;
  return { ...lastOfEach(ctx.query), ...(typeof body === 'object' && !Array.isArray(body) ? body : {}) };
}

/**
 * Wraps a custom method's action so that its declared input schema is checked first: the query
 * string for GET, the body otherwise (no body, or JSON null, counts as an empty object). The action
 * receives the parsed value as `ctx.input`; invalid input gets 422 with the schema's messages and
 * the action never runs.
 */
export function withCheckedInput(method: CustomMethodDecl, handler: ActionHandler): ActionHandler {
  const schema = method.input as z.ZodType | undefined;
  if (!schema) return handler; // a module object that slipped past the loader's defaults
  return (ctx) => runWithInput(schema, rawInput(method, ctx), ctx, handler);
}

/** getList's query: the page and the declared `listQuery` (its own refinements kept); unknown parameters are ignored. */
const listSchema = (declaration: ResourceDeclaration): z.ZodType =>
  declaration.listQuery ? z.intersection(z.object(PAGE_QUERY), declaration.listQuery) : z.object(PAGE_QUERY);

const NOTHING = z.object({});

/**
 * Wraps a CRUD action so that it receives its input as `ctx.input`: getList its page and list
 * query, getRecord and delete their declared `recordQuery` and `deleteQuery` (422 naming the field),
 * and a write its body, which the save rules check field by field (resource-kit/save.ts).
 */
export function withCrudInput(
  declaration: ResourceDeclaration,
  operation: string,
  handler: ActionHandler,
): ActionHandler {
  if (operation === 'getList') {
    const schema = listSchema(declaration);
    return (ctx) => runWithInput(schema, lastOfEach(ctx.query), ctx, handler);
  }
  if (operation === 'delete' || operation === 'getRecord') {
    const schema = (operation === 'delete' ? declaration.deleteQuery : declaration.recordQuery) ?? NOTHING;
    return (ctx) => runWithInput(schema, lastOfEach(ctx.query), ctx, handler);
  }
  return (ctx) => handler({ ...ctx, input: ctx.body });
}
