import { existsSync } from 'node:fs';
import { z } from 'zod';
import { setTimeout as sleep } from 'node:timers/promises';
import { ok } from '../resource-kit/results.ts';
import type { ActionContext, ResourceDefinition } from '../resource-kit/types.ts';
import type { BusEvent } from '../wire/types.ts';
import { ANY_INPUT, ANY_OUTPUT } from '../resource-kit/contract.ts';

/**
 * A resource used only by tests (loaded through `resourceModules`), to exercise the queue:
 * slow jobs, crashing workers, flaky actions, header echo, large results and raised bus events.
 */
const ensureLog = (ctx: ActionContext) =>
  ctx.db.exec('CREATE TABLE IF NOT EXISTS diagnostics_log (tag TEXT NOT NULL, at INTEGER NOT NULL)');
const log = (ctx: ActionContext, tag: string) => {
  ensureLog(ctx);
  ctx.db.prepare('INSERT INTO diagnostics_log (tag, at) VALUES (?, ?)').run(tag, Date.now());
};
const count = (ctx: ActionContext, tag: string) => {
  ensureLog(ctx);
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM diagnostics_log WHERE tag = ?').get(tag) as { n: number }).n;
};
/** Test actions take and answer anything. */
const ANY = { input: ANY_INPUT, output: ANY_OUTPUT };
const q = (ctx: ActionContext, name: string) => String(ctx.query[name] ?? '');

export const resources: ResourceDefinition[] = [
  {
    declaration: {
      name: 'diagnostics',
      description: 'Test-only diagnostics.',
      security: { permission: 'Diagnostics', channels: ['localhost', 'bearer_token'] },
      fields: {},
      operations: [],
      customMethods: {
        sleep: { verbs: ['GET'], scope: 'collection', level: 'READ', ...ANY },
        crash: { verbs: ['POST'], scope: 'collection', level: 'WRITE', ...ANY },
        flaky: { verbs: ['POST'], scope: 'collection', level: 'WRITE', ...ANY },
        echo: { verbs: ['GET', 'POST'], scope: 'collection', level: 'READ', ...ANY },
        big: { verbs: ['GET'], scope: 'collection', level: 'READ', ...ANY },
        runs: { verbs: ['GET'], scope: 'collection', level: 'READ', ...ANY },
        emit: { verbs: ['POST'], scope: 'collection', level: 'WRITE', ...ANY },
        // Answers data its declared output refuses: the output check's probe.
        mismatch: {
          verbs: ['GET'],
          scope: 'collection',
          level: 'READ',
          input: ANY_INPUT,
          output: z.object({ count: z.number() }),
        },
      },
    },
    actions: {
      custom: {
        // `?until=<file>` holds the job until the test creates that file (then `ms` is not slept).
        sleep: async (ctx) => {
          log(ctx, `sleep:${q(ctx, 'tag')}`);
          const until = q(ctx, 'until');
          if (until) while (!existsSync(until)) await sleep(10);
          else await sleep(Number(q(ctx, 'ms') || 100));
          return ok({ slept: Number(q(ctx, 'ms') || 100) });
        },
        crash: (ctx) => {
          log(ctx, 'crash');
          process.exit(1);
        },
        flaky: (ctx) => {
          const tag = `flaky:${q(ctx, 'tag')}`;
          log(ctx, tag);
          const attempts = count(ctx, tag);
          if (attempts < Number(q(ctx, 'failures') || 0) + 1) throw new Error(`flaky failure ${attempts}`);
          return ok({ attempts });
        },
        echo: (ctx) => ok({ headers: ctx.headers, session: ctx.session, query: ctx.query, body: ctx.body }),
        big: (ctx) => ok({ blob: 'x'.repeat(Number(q(ctx, 'kb') || 1) * 1024) }),
        runs: (ctx) => ok({ count: count(ctx, q(ctx, 'tag')) }),
        // Raises every bus event of `body.events`, as a real action would.
        emit: (ctx) => {
          const { events } = ctx.body as { events: BusEvent[] };
          for (const event of events) ctx.emit(event);
          return ok({ emitted: events.length });
        },
        mismatch: () => ok({ count: 'many' }),
      },
    },
  },
];
