import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

const TASKS = '/pbxcore/api/v3/module-example-tasks/tasks';

/** Writes `<dataDir>/modules/<name>/` with a manifest and an entry file. */
function writeModule(dataDir: string, name: string, manifest: Record<string, unknown> | null, source: string): void {
  const dir = join(dataDir, 'modules', name);
  mkdirSync(dir, { recursive: true });
  if (manifest)
    writeFileSync(join(dir, 'module.json'), JSON.stringify({ name, version: '0.1.0', entry: 'index.js', ...manifest }));
  writeFileSync(join(dir, 'index.js'), source);
}

describe('example modules are off by default', () => {
  it('a server started without exampleModules serves none of them and lists none', async () => {
    const t = await startTestServer();
    try {
      assert.equal((await t.call(TASKS)).status, 404);
      assert.equal((await t.call('/pbxcore/api/example-routes/status')).status, 404);
      assert.equal((await t.call('/pbxcore/api/modules/ExampleCallback/ping')).status, 404);
      const listed = (await t.call('/pbxcore/api/v3/modules')).json.data as Array<{ name: string }>;
      assert.deepEqual(
        listed.filter((m) => m.name.startsWith('Example')),
        [],
      );
    } finally {
      await t.close();
    }
  });
});

describe('extension modules', () => {
  let server: TestServer;
  let dataDir: string;
  let fullKey: string;

  before(async () => {
    dataDir = makeTempDir('pbx-modules-');
    writeModule(dataDir, 'Broken', { style: 'v2' }, "throw new Error('boom while loading');\n");
    writeModule(
      dataDir,
      'BadResource',
      { style: 'v3' },
      "export const resources = [{ declaration: { name: 'module-bad/things', description: 'x', " +
        "security: { permission: 'X', channels: ['nowhere'] }, fields: {}, operations: [] }, " +
        'actions: {} }];\n',
    );
    writeModule(
      dataDir,
      'CoreClash',
      { style: 'v3' },
      "export const resources = [{ declaration: { name: 'extensions', description: 'x', security: " +
        "{ permission: 'X', channels: ['localhost'] }, fields: {}, operations: [] }, actions: {} " +
        '}];\n',
    );
    writeModule(
      dataDir,
      'SlugClash',
      { style: 'v2', slug: 'sip' },
      "export const routes = [{ action: 'getPeersStatuses', methods: ['GET'], handler: () => ({ result: true, data: 'hijacked' }) }];\n",
    );
    writeModule(dataDir, 'NoManifest', null, 'export const callback = () => ({ result: true });\n');
    server = await startTestServer({ keepDataDir: dataDir, exampleModules: true });
    const created = await server.call('/pbxcore/api/v3/api-keys', {
      method: 'POST',
      body: { description: 'module tests', full_permissions: true },
    });
    assert.equal(created.status, 201, created.text);
    fullKey = created.json.data.key;
  });
  after(async () => {
    await server.close();
    removeTempDir(dataDir);
  });

  describe('status', () => {
    it('lists every module with its status; broken ones are skipped with the reason', async () => {
      const res = await server.call('/pbxcore/api/v3/modules');
      assert.equal(res.status, 200);
      type Report = { name: string; status: string; error: string | null; bundled: boolean };
      const byName: Record<string, Report> = Object.fromEntries((res.json.data as Report[]).map((m) => [m.name, m]));
      for (const name of ['ExampleTasks', 'ExampleRoutes', 'ExampleCallback']) {
        assert.equal(byName[name]?.status, 'loaded', name);
        assert.equal(byName[name]?.bundled, true);
      }
      assert.match(byName.Broken!.error!, /threw while loading: boom while loading/);
      assert.match(byName.BadResource!.error!, /Invalid resource module-bad\/things: .*channels/);
      assert.match(byName.CoreClash!.error!, /"extensions" clashes with a resource already served/);
      assert.match(byName.SlugClash!.error!, /slug "sip" clashes with the core path/);
      assert.match(byName.NoManifest!.error!, /module\.json is missing/);
      for (const name of ['Broken', 'BadResource', 'CoreClash', 'SlugClash', 'NoManifest'])
        assert.equal(byName[name]!.status, 'failed');
      assert.equal(res.json.pagination.total, 8);
    });

    it('reads one module by name, 404 for an unknown one', async () => {
      const one = await server.call('/pbxcore/api/v3/modules/ExampleRoutes');
      assert.deepEqual(one.json.data.paths, [
        '/pbxcore/api/example-routes/status',
        '/pbxcore/api/example-routes/echo',
        '/pbxcore/api/example-routes/sum',
      ]);
      assert.equal((await server.call('/pbxcore/api/v3/modules/Nope')).status, 404);
    });

    it('keeps serving core routes, and a clashing module never takes over a core path', async () => {
      assert.equal((await server.call('/pbxcore/api/v3/system:ping')).status, 200);
      const extensions = await server.call('/pbxcore/api/v3/extensions');
      assert.equal(extensions.status, 200);
      assert.ok(Array.isArray(extensions.json.data));
      const peers = await server.call('/pbxcore/api/sip/getPeersStatuses');
      assert.notEqual(peers.json?.data, 'hijacked');
    });
  });

  describe('v3 declared resources', () => {
    it('follow the save semantics: required fields, defaults, 201, PATCH partial, PUT 404', async () => {
      const missing = await server.call(TASKS, { method: 'POST', body: { priority: 2 } });
      assert.equal(missing.status, 422);
      assert.equal(missing.json.result, false);
      const created = await server.call(TASKS, { method: 'POST', body: { title: '  water the plants ' } });
      assert.equal(created.status, 201);
      assert.deepEqual(created.json.data, {
        id: created.json.data.id,
        title: 'water the plants',
        priority: 3,
        done: false,
      });
      assert.equal(created.json.processor, 'ExampleTasks');
      const id = created.json.data.id as number;
      const patched = await server.call(`${TASKS}/${id}`, { method: 'PATCH', body: { priority: 1 } });
      assert.equal(patched.status, 200);
      assert.deepEqual([patched.json.data.title, patched.json.data.priority], ['water the plants', 1]);
      assert.equal(
        (await server.call(`${TASKS}/${id}`, { method: 'PUT', body: { priority: 2 } })).status,
        422,
        'PUT enforces required fields',
      );
      assert.equal((await server.call(`${TASKS}/9999`, { method: 'PATCH', body: { priority: 2 } })).status, 404);
      assert.equal((await server.call(`${TASKS}/${id}`, { method: 'PATCH', body: { priority: 9 } })).status, 422);
      const completed = await server.call(`${TASKS}/${id}:complete`, { method: 'POST' });
      assert.deepEqual(completed.json.data, { id, done: true });
      assert.equal((await server.call(`${TASKS}/${id}:complete`, { method: 'GET' })).status, 405);
      assert.equal((await server.call(`${TASKS}:nope`)).status, 405);
      const list = await server.call(`${TASKS}?limit=1`);
      assert.equal(list.json.pagination.limit, 1);
      assert.equal((await server.call(`${TASKS}/${id}`, { method: 'DELETE' })).status, 200);
      assert.equal((await server.call(`${TASKS}/${id}`)).status, 404);
    });

    it('apply permissions: anonymous remote callers get 401, a read-only key cannot write, a public method is open', async () => {
      assert.equal((await server.remote(TASKS)).status, 401);
      const open = await server.remote(`${TASKS}:getOpenCount`);
      assert.equal(open.status, 200);
      assert.equal(typeof open.json.data.open, 'number');
      const readOnly = await server.call('/pbxcore/api/v3/api-keys', {
        method: 'POST',
        body: { description: 'tasks reader', allowed_paths: { '/api/v3/module-example-tasks/tasks': 'read' } },
      });
      assert.equal(readOnly.status, 201, readOnly.text);
      const auth = { Authorization: `Bearer ${readOnly.json.data.key}` };
      assert.equal((await server.remote(TASKS, { headers: auth })).status, 200);
      assert.equal((await server.remote(TASKS, { method: 'POST', headers: auth, body: { title: 'x' } })).status, 403);
    });

    it('see their X-Module-<Name>-* headers', async () => {
      const res = await server.call(`${TASKS}:getSummary`, { headers: { 'X-Module-ExampleTasks-Caller': 'console' } });
      assert.equal(res.json.data.caller, 'console');
    });
  });

  describe('v2 route table', () => {
    it('serves a public route to a remote client without credentials', async () => {
      const res = await server.remote('/pbxcore/api/example-routes/status');
      assert.equal(res.status, 200);
      assert.equal(res.json.data.ready, true);
      assert.equal(res.json.function, 'status');
      assert.deepEqual(res.json.jsonapi, { version: '1.0' });
      assert.ok(res.headers['e-tag']);
    });

    it('requires authentication on other routes and runs them in a worker with the module headers', async () => {
      assert.equal((await server.remote('/pbxcore/api/example-routes/echo')).status, 401);
      const res = await server.remote('/pbxcore/api/example-routes/echo?x=1', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${fullKey}`,
          'X-Module-ExampleRoutes-Trace': 'abc',
          'X-Module-Other-Thing': 'no',
        },
        body: { hello: 'world' },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.data, {
        input: { x: '1', hello: 'world' },
        headers: { 'x-module-exampleroutes-trace': 'abc' },
        authType: 'api_key',
      });
      assert.equal(res.json.processor, 'ExampleRoutes');
      assert.ok(res.json.pid > 0);
    });

    it('validates through the declared input (422) and does not answer undeclared methods', async () => {
      const bad = await server.call('/pbxcore/api/example-routes/sum', { method: 'POST', body: { values: ['a'] } });
      assert.equal(bad.status, 422);
      assert.deepEqual(bad.json.messages.error, ['values must be a list of numbers.']);
      const good = await server.call('/pbxcore/api/example-routes/sum', {
        method: 'POST',
        body: { values: [1, 2, 3] },
      });
      assert.equal(good.json.data.sum, 6);
      assert.equal((await server.call('/pbxcore/api/example-routes/sum')).status, 404);
      assert.equal((await server.call('/pbxcore/api/example-routes/unknown')).status, 404);
    });
  });

  describe('v1 single callback', () => {
    it('serves a public action to a remote client and protects the others', async () => {
      const ping = await server.remote('/pbxcore/api/modules/ExampleCallback/ping', { method: 'POST' });
      assert.equal(ping.status, 200);
      assert.deepEqual(ping.json.data, { pong: true });
      assert.equal((await server.remote('/pbxcore/api/modules/ExampleCallback/whoami')).status, 401);
    });

    it('hands every action to the callback with GET and POST', async () => {
      const get = await server.call('/pbxcore/api/modules/ExampleCallback/whoami', {
        headers: { 'X-Module-ExampleCallback-Token': 't1' },
      });
      assert.deepEqual(get.json.data, { verb: 'GET', authType: null, token: 't1' });
      const post = await server.remote('/pbxcore/api/modules/ExampleCallback/whoami', {
        method: 'POST',
        headers: { 'X-Api-Key': fullKey },
      });
      assert.deepEqual(post.json.data, { verb: 'POST', authType: 'api_key', token: null });
      const unknown = await server.call('/pbxcore/api/modules/ExampleCallback/nothing');
      assert.equal(unknown.status, 404);
      assert.match(unknown.json.messages.error[0], /no action "nothing"/);
      assert.equal((await server.call('/pbxcore/api/modules/ExampleCallback/bad-name')).status, 400);
      assert.equal((await server.call('/pbxcore/api/modules/ExampleCallback/constructor')).status, 404);
      assert.equal((await server.call('/pbxcore/api/modules/NoSuchModule/ping')).status, 404);
      assert.equal((await server.call('/pbxcore/api/modules/ExampleCallback/ping', { method: 'DELETE' })).status, 404);
    });
  });
});
