import type { CrudOperation, Level, ResourceDeclaration } from './types.ts';

const DEFAULT_LEVELS: Record<CrudOperation, Level> = {
  getList: 'READ',
  getRecord: 'READ',
  create: 'WRITE',
  update: 'WRITE',
  patch: 'WRITE',
  delete: 'WRITE',
};

/** The level a CRUD operation needs: the declaration's own choice, else READ for reads and WRITE for writes. */
export function crudLevel(declaration: ResourceDeclaration, operation: CrudOperation): Level {
  return declaration.security.levels?.[operation] ?? DEFAULT_LEVELS[operation];
}
