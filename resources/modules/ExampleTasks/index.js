// Example v3 module: declared resources, served at /pbxcore/api/v3/module-example-tasks/tasks.
// Plain ES module with JSDoc types, so it loads in worker threads without a TypeScript loader.

/** @typedef {import('../../../src-server/modules/sdk.ts').ModuleSdk} ModuleSdk */
/** @typedef {import('../../../src-server/modules/types.ts').ModuleExports} ModuleExports */
/** @typedef {import('../../../src-server/resource-kit/types.ts').ResourceDeclaration} ResourceDeclaration */
/** @typedef {import('../../../src-server/resource-kit/types.ts').ActionContext} ActionContext */

const TABLE = 'module_example_tasks';

/**
 * Called once per thread with the server's building blocks.
 * @param {ModuleSdk} sdk
 * @returns {ModuleExports}
 */
export function register(sdk) {
  const { z, field, crudActions, ok, failure, recordNotFound } = sdk;

  /** @satisfies {ResourceDeclaration} */
  const tasks = {
    name: 'module-example-tasks/tasks',
    description: 'To-do items of the example module.',
    processor: 'ExampleTasks',
    kind: 'collection',
    security: { permission: 'ModuleExampleTasks', channels: ['localhost', 'bearer_token'] },
    fields: {
      id: field.recordId('Assigned by the server.'),
      title: field.text(z.string().min(1).max(200), { required: true, description: 'What to do.' }),
      priority: field.integer(z.number().int().min(1).max(5), { default: 3, description: '1 (highest) to 5.' }),
      done: field.boolean({ default: false }),
    },
    operations: ['getList', 'getRecord', 'create', 'update', 'patch', 'delete'],
    customMethods: {
      getSummary: {
        verbs: ['GET'],
        scope: 'collection',
        level: 'READ',
        description: 'Counts of open and finished tasks.',
        input: z.object({}),
        output: z.object({ open: z.number().int(), done: z.number().int(), caller: z.string().nullable() }),
      },
      getOpenCount: {
        verbs: ['GET'],
        scope: 'collection',
        level: 'READ',
        public: true,
        description: 'Number of open tasks; public.',
        input: z.object({}),
        output: z.object({ open: z.number().int() }),
      },
      complete: {
        verbs: ['POST'],
        scope: 'resource',
        level: 'WRITE',
        description: 'Marks one task done.',
        input: z.object({}),
        output: z.object({ id: z.number().int(), done: z.literal(true) }),
      },
    },
  };

  /** @param {ActionContext} ctx */
  const counts = (ctx) =>
    /** @type {{open: number, done: number}} */ (
      ctx.db
        .prepare(`SELECT COALESCE(SUM(done = 0), 0) AS open, COALESCE(SUM(done = 1), 0) AS done FROM ${TABLE}`)
        .get()
    );

  return {
    install(db) {
      db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        title TEXT NOT NULL,
        priority INTEGER NOT NULL DEFAULT 3,
        done INTEGER NOT NULL DEFAULT 0
      )`);
    },
    resources: [
      {
        declaration: tasks,
        actions: {
          ...crudActions(tasks, { table: TABLE }),
          custom: {
            getSummary: (ctx) => ok({ ...counts(ctx), caller: ctx.headers['x-module-exampletasks-caller'] ?? null }),
            getOpenCount: (ctx) => ok({ open: counts(ctx).open }),
            complete: (ctx) => {
              if (!/^\d+$/.test(String(ctx.id))) return failure(422, 'Task ids are integers.');
              const changed = ctx.db.prepare(`UPDATE ${TABLE} SET done = 1 WHERE id = ?`).run(Number(ctx.id)).changes;
              if (changed === 0) return recordNotFound(tasks.name, String(ctx.id));
              ctx.emit({ type: 'resource-changed', resource: tasks.name });
              return ok({ id: Number(ctx.id), done: true });
            },
          },
        },
      },
    ],
  };
}
