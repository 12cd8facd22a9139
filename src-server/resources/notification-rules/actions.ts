import { statement } from '../../storage/database.ts';
import { crudActions } from '../../resource-kit/crud.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { notificationRulesDeclaration } from './declaration.ts';

const crud = crudActions(notificationRulesDeclaration, {
  table: 'notification_rules',
  validate: (complete, ctx) =>
    statement(ctx.db, 'SELECT 1 FROM notification_channels WHERE id = ?').get(complete.channelId)
      ? []
      : [`channelId: no notification channel has id ${String(complete.channelId)}.`],
});

export const notificationRulesActions = defineActions(notificationRulesDeclaration, crud);
