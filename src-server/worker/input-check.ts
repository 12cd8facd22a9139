import type { z } from 'zod';
import { invalid } from '../resource-kit/results.ts';
import type { ActionHandler, CustomMethodDecl } from '../resource-kit/types.ts';

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
  if (!field || issue.message.startsWith(`${field} `) || issue.message.startsWith(`${field}:`)) return issue.message;
  return `${field}: ${issue.message}`;
}

/**
 * Wraps a custom method's action so that its declared input schema is checked first: the query
 * string for GET, the body otherwise (no body, or JSON null, counts as an empty object). Invalid
 * input gets 422 with the schema's messages and the action never runs.
 */
export function withCheckedInput(method: CustomMethodDecl, handler: ActionHandler): ActionHandler {
  const schema = method.input as z.ZodType | undefined;
  if (!schema) return handler; // a module object that slipped past the loader's defaults
  return (ctx) => {
    const parsed = schema.safeParse(ctx.verb === 'GET' ? lastOfEach(ctx.query) : (ctx.body ?? {}));
    if (parsed.success) return handler(ctx);
    return invalid([...new Set(parsed.error.issues.map(describeIssue))]);
  };
}
