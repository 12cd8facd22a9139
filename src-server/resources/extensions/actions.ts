import { crudActions } from '../../resource-kit/crud.ts';
import { ok } from '../../resource-kit/results.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { extensionsDeclaration } from './declaration.ts';

export const extensionsActions = defineActions(extensionsDeclaration, {
  ...crudActions(extensionsDeclaration, { table: 'extensions' }),
  custom: {
    getForSelect: (ctx) => {
      const rows = ctx.db
        .prepare('SELECT number, username, callerid FROM extensions WHERE disabled = 0 ORDER BY number')
        .all() as Array<{ number: string; username: string; callerid: string }>;
      return ok(rows.map((r) => ({ value: r.number, text: `${r.number} ${r.callerid || r.username}`.trim() })));
    },
  },
});
