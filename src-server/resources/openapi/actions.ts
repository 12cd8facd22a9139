import { workerCatalog } from '../../modules/worker-modules.ts';
import { buildOpenApiDocument } from '../../openapi/document.ts';
import { readSetting } from '../../storage/settings.ts';
import { failure, ok } from '../../resource-kit/results.ts';
import { RUNTIME_SETTING_KEY, type RuntimeInfo } from '../system/actions.ts';
import type { ResourceActions } from '../../resource-kit/types.ts';

export const openapiActions: ResourceActions = {
  custom: {
    getSpecification: (ctx) => {
      // The worker's own registry: core, test resources and the modules this worker loaded.
      const { registry } = workerCatalog();
      if (!registry) return failure(503, 'The worker has not finished loading; retry.');
      const version = readSetting<RuntimeInfo>(ctx.db, RUNTIME_SETTING_KEY)?.version ?? '0.0.0';
      return ok(buildOpenApiDocument({ declarations: registry.all().map((d) => d.declaration), version }));
    },
  },
};
