import { HttpError } from '../wire/errors.ts';
import { withCheckedInput } from './input-check.ts';
import type { ActionResult } from '../wire/envelope.ts';
import type { ActionContext, ActionHandler, ResourceDefinition } from '../resource-kit/types.ts';

/**
 * Finds the handler for a CRUD operation or custom method of a resource. A custom method's
 * handler checks the declared input first (CRUD input is checked by the save rules, resources/save.ts).
 */
export function findHandler(definition: ResourceDefinition, operation: string): ActionHandler | undefined {
  const { actions, declaration } = definition;
  if (operation in actions && operation !== 'custom')
    return actions[operation as keyof typeof actions] as ActionHandler;
  const handler = actions.custom?.[operation];
  const methods = declaration.customMethods ?? {};
  return handler && Object.hasOwn(methods, operation) ? withCheckedInput(methods[operation]!, handler) : handler;
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
