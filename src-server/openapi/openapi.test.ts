import { Validator } from '@seriousme/openapi-schema-validator';
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ResourceDeclaration } from '../resource-kit/types.ts';
import { useTestServer } from '../test-support/server.ts';
import { buildOpenApiDocument } from './document.ts';
import { routesOf } from '../http/live-routes.ts';

const SPEC_PATH = '/pbxcore/api/v3/openapi:getSpecification';
const STANDARD_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
type Paths = Record<string, Record<string, unknown>>;

/** The (method, path) pairs the v3 grammar serves for a declaration, derived independently of the generator. */
function grammarRoutes(declaration: ResourceDeclaration): Array<[string, string]> {
  const base = `/pbxcore/api/v3/${declaration.name}`;
  const singleton = declaration.kind === 'singleton';
  const routes: Array<[string, string]> = [];
  const crud = {
    getList: ['GET', base],
    create: ['POST', base],
    getRecord: ['GET', singleton ? base : `${base}/{id}`],
    update: ['PUT', singleton ? base : `${base}/{id}`],
    patch: ['PATCH', singleton ? base : `${base}/{id}`],
    delete: ['DELETE', `${base}/{id}`],
  } as const;
  for (const op of declaration.operations) routes.push([...crud[op]]);
  for (const [name, method] of Object.entries(declaration.customMethods ?? {})) {
    for (const verb of method.verbs)
      routes.push([verb, method.scope === 'resource' ? `${base}/{id}:${name}` : `${base}:${name}`]);
  }
  return routes;
}

describe('OpenAPI 3.1 document', () => {
  let document: { openapi: string; paths: Paths; components: Record<string, Record<string, unknown>> };

  const server = useTestServer({ exampleModules: true });
  before(async () => {
    const res = await server.call(SPEC_PATH);
    assert.equal(res.status, 200);
    document = res.json.data;
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(document.openapi, '3.1.0');
    const result = await new Validator().validate(structuredClone(document));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('describes every route the fixed-route router answers', () => {
    const router = server.server.router;
    assert.ok(router, 'the modules feature records the live router');
    const missing: string[] = [];
    for (const route of routesOf(router)) {
      if (route.pattern) {
        // A RegExp layer (the bouncer export) serves a family of paths: at least one must be described.
        if (!Object.keys(document.paths).some((p) => route.pattern!.test(p)))
          missing.push(`${route.methods.join('|')} ${route.path}`);
        continue;
      }
      const item = document.paths[route.path];
      if (!item) {
        missing.push(`${route.methods.join('|')} ${route.path}`);
        continue;
      }
      // A catch-all layer (router.all) lists every method Node knows: its path being described is enough.
      if (route.methods.some((m) => !STANDARD_METHODS.has(m))) continue;
      for (const verb of route.methods) {
        const method = verb === 'HEAD' && !item.head ? 'get' : verb.toLowerCase();
        if (!item[method]) missing.push(`${verb} ${route.path}`);
      }
    }
    assert.deepEqual(missing, [], 'routes served but not described; add them to src-server/openapi/fixed-routes.ts');
  });

  it('describes every operation of every registered resource, core and module', () => {
    const missing: string[] = [];
    const declarations = server.server.services.registry.all().map((d) => d.declaration);
    assert.ok(
      declarations.some((d) => d.name.startsWith('module-')),
      'a module resource is registered',
    );
    for (const declaration of declarations) {
      for (const [verb, path] of grammarRoutes(declaration)) {
        if (!document.paths[path]?.[verb.toLowerCase()]) missing.push(`${verb} ${path}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('describes module v1 and v2 routes, the push channel, the auth, bouncer and legacy endpoints', () => {
    const expected = [
      ['get', '/pbxcore/api/example-routes/status'],
      ['post', '/pbxcore/api/modules/ExampleCallback/{action}'],
      ['get', '/pbxcore/api/v3/events'],
      ['post', '/pbxcore/api/v3/auth:login'],
      ['post', '/admin-cabinet/session/start'],
      ['get', '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream'],
      ['head', '/pbxcore/api/v3/firewall-bouncer/v1/decisions'],
      ['get', '/pbxcore/api/v3/firewall-bouncer/v1/whitelist'],
      ['get', '/pbxcore/api/sip/getPeersStatuses'],
      ['post', '/pbxcore/api/sip/getSipPeer'],
    ] as const;
    for (const [method, path] of expected) assert.ok(document.paths[path]?.[method], `${method} ${path}`);
    const publicRoute = document.paths['/pbxcore/api/example-routes/status']!.get as { security: unknown[] };
    assert.deepEqual(publicRoute.security, [], 'a public module route needs no credential');
  });

  it('has the security schemes, the error envelope and field schemas from the declarations', () => {
    const schemes = document.components.securitySchemes as Record<
      string,
      { type: string; scheme?: string; bearerFormat?: string; name?: string }
    >;
    assert.equal(schemes.bearerAuth!.scheme, 'bearer');
    assert.equal(schemes.bearerAuth!.bearerFormat, 'JWT');
    assert.deepEqual([schemes.apiKeyAuth!.type, schemes.apiKeyAuth!.name], ['apiKey', 'X-Api-Key']);
    assert.ok(document.components.schemas!.ErrorEnvelope);
    const tasks = document.components.schemas!.ModuleExampleTasksTasks as {
      properties: Record<string, Record<string, unknown>>;
    };
    assert.deepEqual(tasks.properties.priority, {
      type: 'integer',
      minimum: 1,
      maximum: 5,
      description: '1 (highest) to 5.',
      default: 3,
    });
    const extensions = document.components.schemas!.Extensions as {
      properties: Record<string, Record<string, unknown>>;
    };
    assert.equal(extensions.properties.secret!.writeOnly, true);
    const create = document.paths['/pbxcore/api/v3/module-example-tasks/tasks']!.post as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    assert.deepEqual(create.requestBody.content['application/json']!.schema.required, ['title']);
    const notFound = document.components.responses!.Error404 as { content: Record<string, { schema: unknown }> };
    assert.deepEqual(notFound.content['application/json']!.schema, { $ref: '#/components/schemas/ErrorEnvelope' });
  });

  it('is served to loopback and Bearer callers only', async () => {
    const anonymous = await server.remote(SPEC_PATH);
    assert.equal(anonymous.status, 401);
    const created = await server.call('/pbxcore/api/v3/api-keys', {
      method: 'POST',
      body: { description: 'openapi reader', full_permissions: true },
    });
    assert.equal(created.status, 201, created.text);
    const key = created.json.data.key as string;
    const withKey = await server.remote(SPEC_PATH, { headers: { Authorization: `Bearer ${key}` } });
    assert.equal(withKey.status, 200);
    assert.equal(withKey.json.data.openapi, '3.1.0');
  });

  it('turns schemas zod cannot express into an empty schema instead of failing', () => {
    const weird: ResourceDeclaration = {
      name: 'weird',
      description: 'x',
      security: { permission: 'Weird', channels: ['localhost'] },
      fields: { when: { schema: {} as never, storage: 'text' } },
      operations: ['getList'],
    };
    const built = buildOpenApiDocument({ declarations: [weird], version: '1', fixed: [] }) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    assert.deepEqual(built.components.schemas.Weird!.properties.when, {});
  });
});
