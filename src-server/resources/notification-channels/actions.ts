import { revealSecret } from '../../storage/database.ts';
import { channelRow } from '../../notifications/channel-store.ts';
import { NOTIFICATION_SECRET_CONTEXT } from '../../storage/migrations/085-notifications.ts';
import { checkCredentialChange } from '../../resource-kit/credential-destination.ts';
import { crudActions } from '../../resource-kit/crud.ts';
import { rowToValues, toPublicRecord } from '../../resource-kit/records.ts';
import { failure, ok, recordNotFound } from '../../resource-kit/results.ts';
import { prepareSave, type SaveMode } from '../../resource-kit/save.ts';
import { defineActions, type ActionContext, type ActionHandler, type MethodAction } from '../../resource-kit/types.ts';
import { CHANNEL_CREDENTIAL_DESTINATIONS, validateChannel } from '../../notifications/channel-fields.ts';
import { notificationChannelsDeclaration as declaration } from './declaration.ts';

const crud = crudActions(declaration, {
  table: 'notification_channels',
  validate: (complete) => validateChannel(complete),
  present: (values, ctx) => ({
    id: values.id,
    ...toPublicRecord(declaration, values, ctx.canReadSensitive),
    hasSecret: typeof values.secret === 'string' && values.secret !== '',
    lastResult: values.lastResult ?? null,
  }),
});

function storedChannel(ctx: ActionContext): Record<string, unknown> | undefined {
  const row = channelRow(ctx.db, ctx.id);
  return row && { ...rowToValues(declaration, row), id: row.id };
}

/**
 * The rule of resource-kit/credential-destination.ts for a channel: without SENSITIVE a caller may
 * not set the secret, nor send the stored one to another url, host, port, login or type, unless it
 * re-enters it in the same request. 403 naming the fields; nothing is saved.
 */
const guarded =
  (mode: SaveMode, save: ActionHandler): ActionHandler =>
  (ctx) => {
    if (ctx.canReadSensitive) return save(ctx);
    return ctx.db
      .transaction(() => {
        const existing = mode === 'create' ? undefined : storedChannel(ctx);
        if (mode !== 'create' && !existing) return recordNotFound(declaration.name, ctx.id ?? '');
        const outcome = prepareSave({ declaration, mode, verb: ctx.verb, body: ctx.input, existing });
        if (!outcome.ok) return save(ctx);
        const body = ctx.input as Record<string, unknown>;
        const stored = String(existing?.secret ?? '');
        const before = { ...existing, secret: stored ? revealSecret(ctx.db, stored, NOTIFICATION_SECRET_CONTEXT) : '' };
        const sent = new Set('secret' in body ? ['secret'] : []);
        const after = { ...outcome.complete, secret: sent.size ? (outcome.complete.secret ?? '') : before.secret };
        const verdict = checkCredentialChange({
          destinations: CHANNEL_CREDENTIAL_DESTINATIONS,
          before,
          after,
          sent,
          sensitive: false,
        });
        if (!verdict.ok) return failure(verdict.status, verdict.message);
        return save(ctx);
      })
      .immediate();
  };

/** notification-channels/{id}:sendTest: the web thread sends it (notifications/), the answer does not wait. */
const sendTest: MethodAction<typeof declaration, 'sendTest'> = (ctx) => {
  const channel = storedChannel(ctx);
  if (!channel) return recordNotFound(declaration.name, ctx.id ?? '');
  const channelId = Number(channel.id);
  ctx.emit({ type: 'notification-test', channelId });
  return ok(
    { queued: true, channelId },
    { messages: { error: [], info: ['The test message is queued; its result shows in lastResult.'] } },
  );
};

export const notificationChannelsActions = defineActions(declaration, {
  ...crud,
  create: guarded('create', crud.create),
  update: guarded('update', crud.update),
  patch: guarded('patch', crud.patch),
  custom: { sendTest },
});
