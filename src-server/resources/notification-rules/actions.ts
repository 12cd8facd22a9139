import { channelExists } from '../../notifications/channel-store.ts';
import { crudActions } from '../../resource-kit/crud.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { notificationRulesDeclaration } from './declaration.ts';

const crud = crudActions(notificationRulesDeclaration, {
  table: 'notification_rules',
  validate: (complete, ctx) =>
    channelExists(ctx.db, complete.channelId)
      ? []
      : [`channelId: no notification channel has id ${String(complete.channelId)}.`],
});

export const notificationRulesActions = defineActions(notificationRulesDeclaration, crud);
