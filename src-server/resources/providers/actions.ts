import { randomBytes } from 'node:crypto';
import { crudActions } from '../../resource-kit/crud.ts';
import { getProviderStatuses } from '../sip/actions.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { providersDeclaration } from './declaration.ts';

export const providersActions = defineActions(providersDeclaration, {
  ...crudActions(providersDeclaration, {
    table: 'providers',
    generateId: () => `SIP-${randomBytes(4).toString('hex').toUpperCase()}`,
  }),
  custom: { getStatuses: getProviderStatuses },
});
