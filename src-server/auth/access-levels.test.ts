import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { REMOTE, useTestServer } from '../test-support/server.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { ADMIN_PASSWORD, makeCredentials, type TestCredentials } from '../test-support/credentials.ts';
import { normalisePath } from './allowed-paths.ts';
import { authorize } from './authorize.ts';
import type { Principal } from './principal.ts';
import type { Level } from '../wire/types.ts';
import { HttpError } from '../wire/errors.ts';

/**
 * Issue 19 item 2: each level has its own grant. Every ADMIN and SENSITIVE operation of the
 * generated OpenAPI document is called with a `read` key on its own path, a `write` key on its own
 * path and a viewer JWT, remotely. GET and HEAD get no discount: an ADMIN read needs `write`.
 */

interface Operation {
  method: string;
  path: string;
  level: 'ADMIN' | 'SENSITIVE';
}

const MISSING_ID = 'levels-missing';
const SAFE = new Set(['GET', 'HEAD']);

function privilegedOperations(paths: Record<string, Record<string, { 'x-permission'?: string }>>): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const [verb, op] of Object.entries(item)) {
      const level = op['x-permission']?.split(':').pop();
      if (level !== 'ADMIN' && level !== 'SENSITIVE') continue;
      const path = template.replace('{id}', MISSING_ID);
      operations.push({ method: verb.toUpperCase(), path, level });
      // HEAD follows GET everywhere: the same rule must hold for it.
      if (verb === 'get') operations.push({ method: 'HEAD', path, level });
    }
  }
  return operations;
}

describe('levels: ADMIN and SENSITIVE need their own grant whatever the verb', () => {
  let creds: TestCredentials;
  let operations: Operation[];

  const t = useTestServer({ adminPassword: ADMIN_PASSWORD, exampleModules: true });
  before(async () => {
    // Hundreds of refusals from 127.0.0.2: keep the intrusion-ban component from banning the client.
    const saved = await t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { whitelist: REMOTE } });
    assert.equal(saved.status, 200, saved.text);
    creds = await makeCredentials(t);
    const spec = await t.call('/pbxcore/api/v3/openapi:getSpecification');
    assert.equal(spec.status, 200);
    operations = privilegedOperations(spec.json.data.paths);
  });

  test('the document lists the ADMIN reads the issue names', () => {
    const listed = new Set(operations.map((o) => `${o.method} ${o.path}`));
    for (const read of [
      'GET /pbxcore/api/v3/audit-log',
      'GET /pbxcore/api/v3/backup:exportConfig',
      'GET /pbxcore/api/v3/system:getCertificate',
      'GET /pbxcore/api/v3/api-keys:generateKey',
    ]) {
      assert.ok(listed.has(read), read);
    }
  });

  test('every ADMIN and SENSITIVE operation: read key 403, write key as an admin (ADMIN) or 403 (SENSITIVE), viewer 403', async () => {
    const { db } = t.server.services;
    let checked = 0;
    for (const op of operations) {
      const grant = normalisePath(op.path);
      const readKey = createTestApiKey(db, { description: `read ${grant}`, allowedPaths: { [grant]: 'read' } }).key;
      const writeKey = createTestApiKey(db, { description: `write ${grant}`, allowedPaths: { [grant]: 'write' } }).key;
      const body = SAFE.has(op.method) || op.method === 'DELETE' ? undefined : {};
      const call = (headers: Record<string, string>) => t.remote(op.path, { method: op.method, headers, body });
      const label = `${op.method} ${op.path} (${op.level})`;

      const admin = await call({ authorization: `Bearer ${creds.adminToken}` });
      assert.ok(
        ![401, 403].includes(admin.status) && admin.status < 500,
        `${label}: admin baseline ${admin.status} ${admin.text.slice(0, 200)}`,
      );

      const read = await call({ 'x-api-key': readKey });
      assert.equal(read.status, 403, `${label}: read key (${read.text.slice(0, 200)})`);
      if (op.method !== 'HEAD') assert.equal(read.json.httpCode, 403, label);

      const write = await call({ 'x-api-key': writeKey });
      if (op.level === 'SENSITIVE') assert.equal(write.status, 403, `${label}: write key`);
      else
        assert.equal(
          write.status,
          admin.status,
          `${label}: write key answers like an admin (${write.text.slice(0, 200)})`,
        );

      const viewer = await call({ authorization: `Bearer ${creds.viewerToken}` });
      assert.equal(viewer.status, 403, `${label}: viewer`);
      checked++;
    }
    assert.ok(checked >= 15, `only ${checked} privileged operations`);
  });

  test('a read grant on the audit log names the grant it lacks, and is recorded as a refused key', async () => {
    const { id, key } = createTestApiKey(t.server.services.db, {
      description: 'audit reader',
      allowedPaths: { '/api/v3/audit-log': 'read' },
    });
    const answer = await t.remote('/pbxcore/api/v3/audit-log', { headers: { 'x-api-key': key } });
    assert.equal(answer.status, 403);
    assert.match(answer.json.messages.error[0], /AuditLog:ADMIN needs a "write" grant/);
    t.server.services.audit.flush();
    const listed = await t.call(`/pbxcore/api/v3/audit-log?kind=rejected-key&actor=${id}`);
    assert.equal(listed.status, 200);
    assert.ok(listed.json.data.length >= 1, 'the refusal is in the audit log');
  });
});

test('authorize(): every level against read, write and full grants, GET and POST alike', () => {
  const declaration = {
    name: 'things',
    security: { permission: 'Things', channels: ['localhost', 'bearer_token'] as const },
  };
  const key = (grant: 'read' | 'write' | 'full'): Principal => ({
    channel: 'bearer_token',
    kind: 'api_key',
    keyId: 1,
    allowedPaths: grant === 'full' ? {} : { '/api/v3/things': grant },
    fullPermissions: grant === 'full',
    session: { auth_type: 'api_key', token_id: 1, origin: 'api', remote_addr: '192.0.2.1' },
  });
  const allowed = (principal: Principal, level: Level, method: string) => {
    try {
      authorize(principal, {
        declaration: {
          ...declaration,
          security: { ...declaration.security, channels: [...declaration.security.channels] },
        },
        level,
        method,
        path: '/pbxcore/api/v3/things',
      });
      return true;
    } catch (error) {
      assert.ok(error instanceof HttpError && error.status === 403);
      return false;
    }
  };
  const table: Array<[Level, string, boolean, boolean, boolean]> = [
    // level, verb, read grant, write grant, full permissions
    ['READ', 'GET', true, true, true],
    ['READ', 'POST', false, true, true],
    ['WRITE', 'GET', false, true, true],
    ['WRITE', 'POST', false, true, true],
    ['ADMIN', 'GET', false, true, true],
    ['ADMIN', 'HEAD', false, true, true],
    ['ADMIN', 'POST', false, true, true],
    ['SENSITIVE', 'GET', false, false, true],
    ['SENSITIVE', 'POST', false, false, true],
  ];
  for (const [level, method, read, write, full] of table) {
    assert.equal(allowed(key('read'), level, method), read, `${level} ${method} read`);
    assert.equal(allowed(key('write'), level, method), write, `${level} ${method} write`);
    assert.equal(allowed(key('full'), level, method), full, `${level} ${method} full`);
  }
});
