import { z } from 'zod';
import { recordOutput } from '../resource-kit/contract.ts';
import { failure } from '../resource-kit/results.ts';
import type { ActionHandler, CustomMethodDecl, ResourceDeclaration } from '../resource-kit/types.ts';
import { describeIssue } from './input-check.ts';

/**
 * Wraps a custom method's action so that a successful answer's `data` is checked against the
 * declared output schema (development and tests: config `checkOutputs`). A mismatch is a broken
 * contract: it is logged naming the method and answered 500, never sent as if it were valid.
 */
export function withCheckedOutput(methodName: string, method: CustomMethodDecl, handler: ActionHandler): ActionHandler {
  const schema = method.output as z.ZodType | undefined;
  return schema ? checkedAgainst(schema, `:${methodName}`, handler) : handler;
}

/**
 * The same check for a CRUD operation: its answer is the record (a list of them for getList, the
 * create's declared `createOutput` when there is one), with every readable field as declared. A field
 * may be absent (write-only, sensitive to this caller, a delete's bare id), never of another type.
 */
export function withCheckedCrudOutput(
  declaration: ResourceDeclaration,
  operation: string,
  handler: ActionHandler,
): ActionHandler {
  // A resource without fields (openapi: its record is the document, JSON or YAML text) declares no record shape.
  if (Object.keys(declaration.fields).length === 0 && !(operation === 'create' && declaration.createOutput))
    return handler;
  const record = recordOutput(declaration.fields).partial();
  const schema =
    operation === 'getList'
      ? z.array(record)
      : operation === 'create' && declaration.createOutput
        ? declaration.createOutput
        : record;
  return checkedAgainst(schema, `.${operation}`, handler);
}

function checkedAgainst(schema: z.ZodType, what: string, handler: ActionHandler): ActionHandler {
  return async (ctx) => {
    const result = await handler(ctx);
    if (!result.result) return result;
    const checked = schema.safeParse(result.data);
    if (checked.success) return result;
    const name = `${ctx.resource.name}${what}`;
    const problems = [...new Set(checked.error.issues.map(describeIssue))];
    console.error(`output check: ${name} answered data that does not match its declared output`, problems);
    return failure(500, `${name} answered data that does not match its declared output: ${problems.join('; ')}`);
  };
}
