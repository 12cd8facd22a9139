// Example v1 module: a single callback receives every action of
// GET|POST /pbxcore/api/modules/ExampleCallback/{action}; ctx.operation is the action name.

/** @typedef {import('../../../src-server/modules/sdk.ts').ModuleSdk} ModuleSdk */
/** @typedef {import('../../../src-server/modules/types.ts').ModuleExports} ModuleExports */

/**
 * @param {ModuleSdk} sdk
 * @returns {ModuleExports}
 */
export function register(sdk) {
  const { ok, failure } = sdk;
  return {
    publicActions: ['ping'],
    callback(ctx) {
      switch (ctx.operation) {
        case 'ping':
          return ok({ pong: true });
        case 'whoami':
          return ok({
            verb: ctx.verb,
            authType: ctx.session?.auth_type ?? null,
            token: ctx.headers['x-module-examplecallback-token'] ?? null,
          });
        default:
          return failure(404, `ExampleCallback has no action "${ctx.operation}".`);
      }
    },
  };
}
