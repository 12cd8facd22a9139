import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { SETTING_BOUNDS } from '../../../src-shared/setting-bounds.ts';
import { MAX_REASON_CHARS } from '../../firewall/transfer/index.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';

const V3 = '/pbxcore/api/v3/';

/** The reference PBX's openapi helper methods, in its shapes, served from the declarations. */
describe('openapi helper methods', () => {
  let server: TestServer;
  const data = async (path: string, method = 'GET') => {
    const res = await server.call(`${V3}${path}`, { method });
    assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.json)}`);
    assert.equal(res.json.result, true);
    return res.json.data;
  };

  before(async () => {
    server = await startTestServer({ exampleModules: true });
  });
  after(() => server.close());

  it('getValidationSchemas gives each operation its parameters, from the declared input schemas', async () => {
    const schemas = await data('openapi:getValidationSchemas');
    const banIp = schemas[`${V3}firewall:banIp`];
    assert.deepEqual(Object.keys(banIp.parameters).sort(), ['confirmCutOff', 'duration', 'ip', 'reason', 'services']);
    assert.equal(banIp.parameters.ip.required, true);
    assert.equal(banIp.parameters.ip.type, 'string');
    assert.equal(banIp.parameters.reason.required, false);
    assert.equal(banIp.parameters.reason.validation.maxLength, MAX_REASON_CHARS);
    assert.deepEqual(banIp.parameters.services.validation.items.enum, ['SIP', 'WEB', 'AMI', 'IAX']);
    assert.equal(banIp.parameters.services.type, 'array');
    assert.equal(banIp.parameters.services.validation.nullable, true);
    assert.equal(banIp.schema.type, 'object');

    const maxretry = schemas[`${V3}fail2ban:update`].parameters.maxretry;
    assert.equal(maxretry.type, 'integer');
    assert.equal(maxretry.validation.minimum, SETTING_BOUNDS.fail2ban.maxretry.min);
    assert.equal(maxretry.validation.maximum, SETTING_BOUNDS.fail2ban.maxretry.max);

    assert.deepEqual(schemas[`${V3}network-filters:getRecord`].parameters.id, {
      type: 'string',
      required: true,
      validation: {},
      default: null,
      enum: null,
    });
    assert.deepEqual(schemas[`${V3}openapi:getSpecification`].parameters.format.enum, ['json', 'yaml']);
    // PATCH requires nothing; create requires what the declaration requires.
    assert.equal(schemas[`${V3}extensions:patch`].parameters.number.required, false);
    assert.equal(schemas[`${V3}extensions:create`].parameters.number.required, true);
  });

  it('getAclRules gives each operation its level and the allowed_paths grant per verb', async () => {
    const rules = await data('openapi:getAclRules');
    assert.deepEqual(rules.resources[`${V3}api-keys`], {
      permission: 'ApiKeys',
      channels: ['localhost', 'bearer_token'],
    });
    const create = rules.operations[`${V3}api-keys:create`];
    assert.equal(create.acl.level, 'ADMIN');
    assert.deepEqual(create.acl.grants, { POST: 'write' });
    assert.equal(create.requiresId, false);
    // An ADMIN-level read needs a write grant, whatever the verb.
    assert.deepEqual(rules.operations[`${V3}audit-log:getList`].acl.grants, { GET: 'write' });
    assert.deepEqual(rules.operations[`${V3}network-filters:getRecord`].acl.grants, { GET: 'read' });
    assert.equal(rules.operations[`${V3}network-filters:getRecord`].requiresId, true);
    assert.deepEqual(rules.operations[`${V3}system:ping`].security, ['public']);
    assert.deepEqual(rules.operations[`${V3}openapi:clearCache`].acl.verbs, ['POST', 'DELETE']);
    assert.deepEqual([...rules.permissions.ApiKeys].sort(), ['ADMIN', 'READ']);
  });

  it('getDetailedPermissions lists categories of typed controllers with name, label and actions', async () => {
    const { categories } = await data('openapi:getDetailedPermissions');
    const core = categories.PBX_CORE_REST;
    assert.equal(core.type, 'REST');
    const openapi = core.controllers[`${V3}openapi`];
    assert.equal(openapi.name, 'openapi');
    assert.equal(typeof openapi.label, 'string');
    assert.deepEqual(openapi.actions, [
      'getRecord',
      'getSpecification',
      'getValidationSchemas',
      'getAclRules',
      'getDetailedPermissions',
      'clearCache',
    ]);
    assert.equal(openapi.levels.clearCache, 'WRITE');
    assert.deepEqual(openapi.grants.clearCache, { POST: 'write', DELETE: 'write' });
    const modules = Object.keys(categories).filter((name) => name !== 'PBX_CORE_REST');
    assert.ok(modules.length > 0, 'the example modules get categories of their own');
    for (const [name, category] of Object.entries(categories) as [string, { type: string; controllers: object }][]) {
      assert.equal(category.type, 'REST', name);
      for (const controller of Object.values(category.controllers)) {
        assert.equal(typeof controller.name, 'string');
        assert.equal(typeof controller.label, 'string');
        assert.ok(Array.isArray(controller.actions) && controller.actions.length > 0);
      }
    }
  });

  it('clearCache answers POST and DELETE, and no other verb', async () => {
    for (const method of ['POST', 'DELETE'])
      assert.deepEqual(await data('openapi:clearCache', method), {
        message: 'API metadata cache cleared successfully',
      });
    const res = await server.call(`${V3}openapi:clearCache`);
    assert.equal(res.status, 405);
  });

  it('GET openapi?format=yaml is the same document as YAML text; GET openapi is the JSON one', async () => {
    const json = await data('openapi:getSpecification');
    const yamlText = await data('openapi?format=yaml');
    assert.equal(typeof yamlText, 'string');
    assert.match(yamlText, /^openapi: 3\.1\.0$/m);
    assert.deepEqual(parse(yamlText), json);
    assert.deepEqual(await data('openapi'), json);
    assert.deepEqual(await data('openapi?format=json'), json);
    assert.deepEqual(parse(await data('openapi:getSpecification?format=yaml')), json);
  });

  it('a bad format gets 422 naming the field and the allowed values', async () => {
    for (const path of ['openapi?format=xml', 'openapi:getSpecification?format=XML']) {
      const res = await server.call(`${V3}${path}`);
      assert.equal(res.status, 422, path);
      const message = String(res.json.messages.error);
      assert.match(message, /^format: /);
      assert.match(message, /json, yaml/);
    }
  });
});
