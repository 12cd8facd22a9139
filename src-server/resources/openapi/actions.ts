import { stringify } from 'yaml';
import { workerCatalog } from '../../modules/worker-modules.ts';
import { buildOpenApiDocument } from '../../openapi/document.ts';
import { aclRules, detailedPermissions, validationSchemas } from '../../openapi/helper-methods.ts';
import { readSetting } from '../../storage/settings.ts';
import { failure, invalid, ok } from '../../resource-kit/results.ts';
import { runtimeSetting } from '../system/runtime-setting.ts';
import type { ActionContext, ActionHandler, ResourceActions, ResourceDeclaration } from '../../resource-kit/types.ts';
import { specificationQuery } from './schemas.ts';

/** The document this worker last built, per declaration set and version: building it walks every schema. */
let cached: {
  declarations: readonly ResourceDeclaration[];
  version: string;
  document: Record<string, unknown>;
} | null = null;

function declarationsOrNull(): readonly ResourceDeclaration[] | null {
  // The worker's own registry: core, test resources and the modules this worker loaded.
  const { registry } = workerCatalog();
  return registry ? registry.all().map((d) => d.declaration) : null;
}

const NOT_READY = () => failure(503, 'The worker has not finished loading; retry.');

const specification: ActionHandler = (ctx: ActionContext) => {
  const format = Array.isArray(ctx.query.format) ? ctx.query.format[0] : ctx.query.format;
  const parsed = specificationQuery.safeParse({ format });
  if (!parsed.success) return invalid(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  const declarations = declarationsOrNull();
  if (!declarations) return NOT_READY();
  const version = readSetting(ctx.db, runtimeSetting)?.version ?? '0.0.0';
  const fresh =
    cached?.version === version &&
    cached.declarations.length === declarations.length &&
    cached.declarations.every((d, i) => d === declarations[i])
      ? cached
      : (cached = { declarations, version, document: buildOpenApiDocument({ declarations, version }) });
  // No YAML anchors: every reader (and its alias-count guard) gets the plain tree.
  return ok(
    parsed.data.format === 'yaml' ? stringify(fresh.document, { aliasDuplicateObjects: false }) : fresh.document,
  );
};

/** A helper computed from the declarations, or 503 while the worker is still loading. */
const fromDeclarations =
  (compute: (declarations: readonly ResourceDeclaration[]) => unknown): ActionHandler =>
  () => {
    const declarations = declarationsOrNull();
    return declarations ? ok(compute(declarations)) : NOT_READY();
  };

export const openapiActions: ResourceActions = {
  getRecord: specification,
  custom: {
    getSpecification: specification,
    getValidationSchemas: fromDeclarations(validationSchemas),
    getAclRules: fromDeclarations(aclRules),
    getDetailedPermissions: fromDeclarations(detailedPermissions),
    clearCache: () => {
      cached = null;
      return ok({ message: 'API metadata cache cleared successfully' });
    },
  },
};
