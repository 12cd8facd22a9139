import { stringify } from 'yaml';
import type { z } from 'zod';
import { workerCatalog } from '../../modules/worker-modules.ts';
import { buildOpenApiDocument } from '../../openapi/document.ts';
import { aclRules, detailedPermissions, validationSchemas } from '../../openapi/helper-methods.ts';
import { readSetting } from '../../storage/settings.ts';
import { failure, ok } from '../../resource-kit/results.ts';
import { runtimeSetting } from '../system/runtime-setting.ts';
import { defineActions, type ActionHandler, type ResourceDeclaration } from '../../resource-kit/types.ts';
import { openapiDeclaration } from './declaration.ts';
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

/** `GET openapi` and `openapi:getSpecification`: the document, as JSON or YAML text (`?format=`). */
const specification: ActionHandler<z.output<typeof specificationQuery>> = (ctx) => {
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
  return ok(ctx.input.format === 'yaml' ? stringify(fresh.document, { aliasDuplicateObjects: false }) : fresh.document);
};

/** A helper computed from the declarations, or 503 while the worker is still loading. */
const fromDeclarations =
  (compute: (declarations: readonly ResourceDeclaration[]) => unknown): ActionHandler =>
  () => {
    const declarations = declarationsOrNull();
    return declarations ? ok(compute(declarations)) : NOT_READY();
  };

export const openapiActions = defineActions(openapiDeclaration, {
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
});
