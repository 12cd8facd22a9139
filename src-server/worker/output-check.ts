import type { z } from 'zod';
import { failure } from '../resource-kit/results.ts';
import type { ActionHandler, CustomMethodDecl } from '../resource-kit/types.ts';
import { describeIssue } from './input-check.ts';

/**
 * Wraps a custom method's action so that a successful answer's `data` is checked against the
 * declared output schema (development and tests: config `checkOutputs`). A mismatch is a broken
 * contract: it is logged naming the method and answered 500, never sent as if it were valid.
 */
export function withCheckedOutput(methodName: string, method: CustomMethodDecl, handler: ActionHandler): ActionHandler {
  const schema = method.output as z.ZodType | undefined;
  if (!schema) return handler;
  return async (ctx) => {
    const result = await handler(ctx);
    if (!result.result) return result;
    const checked = schema.safeParse(result.data);
    if (checked.success) return result;
    const name = `${ctx.resource.name}:${methodName}`;
    const problems = [...new Set(checked.error.issues.map(describeIssue))];
    console.error(`output check: ${name} answered data that does not match its declared output`, problems);
    return failure(500, `${name} answered data that does not match its declared output: ${problems.join('; ')}`);
  };
}
