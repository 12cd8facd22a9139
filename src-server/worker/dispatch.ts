import { HttpError } from '../wire/errors.ts';
import { withCheckedInput, withCrudInput } from './input-check.ts';
import { withCheckedCrudOutput, withCheckedOutput } from './output-check.ts';
import type { ActionResult } from '../wire/envelope.ts';
import type { ActionContext, ActionHandler, ResourceDefinition } from '../resource-kit/types.ts';

/** How the worker wraps actions: outputs (custom methods' and CRUD's) are checked in development and tests (config `checkOutputs`). */
export interface DispatchOptions {
  checkOutputs?: boolean;
}

/**
 * Finds the handler for a CRUD operation or custom method of a resource. The handler receives its
 * input parsed as `ctx.input`: a custom method's by its declared schema (422 before the action
 * runs), a CRUD operation's as input-check.ts says (writes: the body, for the save rules, save.ts).
 */
export function findHandler(
  definition: ResourceDefinition,
  operation: string,
  options: DispatchOptions = {},
): ActionHandler | undefined {
  const { actions, declaration } = definition;
  if (operation in actions && operation !== 'custom') {
    const crud = actions[operation as keyof typeof actions] as ActionHandler | undefined;
    if (!crud) return undefined;
    const checked = options.checkOutputs ? withCheckedCrudOutput(declaration, operation, crud) : crud;
    return withCrudInput(declaration, operation, checked);
  }
  const handler = actions.custom?.[operation];
  const methods = declaration.customMethods ?? {};
  if (!handler || !Object.hasOwn(methods, operation)) return handler && ((ctx) => handler({ ...ctx, input: ctx.body }));
  const method = methods[operation]!;
  const checked = options.checkOutputs ? withCheckedOutput(operation, method, handler) : handler;
  return withCheckedInput(method, checked);
}

/** Runs a handler; an HttpError thrown by an action becomes its unsuccessful result. */
export async function runAction(handler: ActionHandler, ctx: ActionContext): Promise<ActionResult> {
  try {
    return await handler(ctx);
  } catch (error) {
    if (error instanceof HttpError) {
      return { result: false, data: [], httpCode: error.status, messages: { error: error.messages } };
    }
    throw error;
  }
}
