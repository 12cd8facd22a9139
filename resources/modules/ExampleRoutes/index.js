// Example v2 module: an explicit route table, served at /pbxcore/api/example-routes/{action}.

/** @typedef {import('../../../src-server/modules/sdk.ts').ModuleSdk} ModuleSdk */
/** @typedef {import('../../../src-server/modules/types.ts').ModuleExports} ModuleExports */

const LIST_OF_NUMBERS = 'values must be a list of numbers.';

/** Headers this module reads: X-Module-ExampleRoutes-* (lowercased by the server). */
const OWN_HEADERS = 'x-module-exampleroutes-';

/**
 * @param {ModuleSdk} sdk
 * @returns {ModuleExports}
 */
export function register(sdk) {
  const { ok, z } = sdk;
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
        description: "Echoes its input (query string and body) and the module's own X-Module-ExampleRoutes-* headers.",
        queryJoinsBody: true,
        handler: (ctx) =>
          ok({
            input: ctx.input,
            headers: Object.fromEntries(Object.entries(ctx.headers).filter(([name]) => name.startsWith(OWN_HEADERS))),
            authType: ctx.session?.auth_type ?? null,
          }),
      },
      {
        action: 'sum',
        methods: ['POST'],
        level: 'WRITE',
        description: 'Adds the numbers in `values`.',
        // The declared input answers 422 naming `values`; the handler gets the parsed numbers.
        input: z.object({ values: z.array(z.number({ error: LIST_OF_NUMBERS }), { error: LIST_OF_NUMBERS }) }),
        output: z.object({ sum: z.number() }),
        handler: (ctx) => {
          const { values } = /** @type {{values: number[]}} */ (ctx.input);
          return ok({ sum: values.reduce((a, b) => a + b, 0) });
        },
      },
    ],
  };
}
