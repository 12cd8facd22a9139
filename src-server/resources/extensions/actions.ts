import { enabledExtensions } from '../../peers/extension-rows.ts';
import { crudActions } from '../../resource-kit/crud.ts';
import { ok } from '../../resource-kit/results.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { extensionsDeclaration } from './declaration.ts';

export const extensionsActions = defineActions(extensionsDeclaration, {
  ...crudActions(extensionsDeclaration, { table: 'extensions' }),
  custom: {
    getForSelect: (ctx) => {
      return ok(
        enabledExtensions(ctx.db).map((r) => ({
          value: r.number,
          text: `${r.number} ${r.callerid || r.username}`.trim(),
        })),
      );
    },
  },
});
