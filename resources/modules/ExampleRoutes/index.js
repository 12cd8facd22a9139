// Example v2 module: an explicit route table, served at /pbxcore/api/example-routes/{action}.

/** @typedef {import('../../../src-server/modules/sdk.ts').ModuleSdk} ModuleSdk */
/** @typedef {import('../../../src-server/modules/types.ts').ModuleExports} ModuleExports */

/** Headers this module reads: X-Module-ExampleRoutes-* (lowercased by the server). */
const OWN_HEADERS = 'x-module-exampleroutes-';

/**
 * @param {ModuleSdk} sdk
 * @returns {ModuleExports}
 */
export function register(sdk) {
  const { ok, invalid } = sdk;
  return {
    routes: [
      {
        action: 'status',
        methods: ['GET'],
        public: true,
        description: 'Public liveness of the module.',
        handler: (ctx) => ok({ module: 'ExampleRoutes', ready: true, worker: ctx.pid }),
      },
      {
        action: 'echo',
        methods: ['GET', 'POST'],
        description: "Echoes the body, the query and the module's own X-Module-ExampleRoutes-* headers.",
        handler: (ctx) =>
          ok({
            query: ctx.query,
            body: ctx.body,
            headers: Object.fromEntries(Object.entries(ctx.headers).filter(([name]) => name.startsWith(OWN_HEADERS))),
            authType: ctx.session?.auth_type ?? null,
          }),
      },
      {
        action: 'sum',
        methods: ['POST'],
        level: 'WRITE',
        description: 'Adds the numbers in `values`.',
        handler: (ctx) => {
          const values = /** @type {{values?: unknown}} */ (ctx.body ?? {}).values;
          if (!Array.isArray(values) || !values.every((v) => typeof v === 'number'))
            return invalid(['values must be a list of numbers.']);
          return ok({ sum: values.reduce((a, b) => a + b, 0) });
        },
      },
    ],
  };
}
