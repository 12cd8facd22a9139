import { readSetting, storedFields, writeSetting } from '../storage/settings.ts';
import { declaredDefaults } from './fields.ts';
import { toPublicRecord } from './records.ts';
import { invalid, ok } from './results.ts';
import { prepareSave } from './save.ts';
import type { ActionContext, ActionHandler, ResourceDeclaration } from './types.ts';

/** Current values of a singleton: stored values over declared defaults. */
export function readSingleton(
  declaration: Pick<ResourceDeclaration, 'fields'>,
  ctx: Pick<ActionContext, 'db'>,
  key: string,
): Record<string, unknown> {
  return { ...declaredDefaults(declaration.fields), ...readSetting(ctx.db, storedFields(key)) };
}

/** GET/PUT/PATCH of a settings singleton kept as one JSON value in the settings table. */
export function singletonActions(
  declaration: ResourceDeclaration,
  options: { settingKey: string; validate?: (complete: Record<string, unknown>) => string[] },
): { getRecord: ActionHandler; update: ActionHandler; patch: ActionHandler } {
  const getRecord: ActionHandler = (ctx) =>
    ok(toPublicRecord(declaration, readSingleton(declaration, ctx, options.settingKey), ctx.canReadSensitive));
  const save =
    (mode: 'update' | 'patch'): ActionHandler =>
    (ctx) =>
      ctx.db.transaction(() => {
        const existing = readSingleton(declaration, ctx, options.settingKey);
        const outcome = prepareSave({
          declaration,
          mode,
          verb: ctx.verb,
          body: ctx.body,
          existing,
          validate: options.validate,
        });
        if (!outcome.ok) return invalid(outcome.errors);
        writeSetting(ctx.db, options.settingKey, outcome.complete);
        ctx.emit({ type: 'resource-changed', resource: declaration.name });
        return ok(toPublicRecord(declaration, outcome.complete, ctx.canReadSensitive));
      })();
  return { getRecord, update: save('update'), patch: save('patch') };
}
