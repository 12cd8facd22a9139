import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalisePath, pathAllowed } from './allowed-paths.ts';

test('normalisePath strips /pbxcore, query, trailing slash, :method and a trailing id', () => {
  assert.equal(normalisePath('/pbxcore/api/v3/extensions'), '/api/v3/extensions');
  assert.equal(normalisePath('/pbxcore/api/v3/extensions/'), '/api/v3/extensions');
  assert.equal(normalisePath('/pbxcore/api/v3/extensions/201'), '/api/v3/extensions');
  assert.equal(normalisePath('/pbxcore/api/v3/extensions/201:getStatus?x=1'), '/api/v3/extensions');
  assert.equal(normalisePath('/pbxcore/api/v3/extensions:getForSelect'), '/api/v3/extensions');
  assert.equal(normalisePath('/pbxcore/api/v3/module-demo/items/7'), '/api/v3/module-demo/items');
  assert.equal(
    normalisePath('/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream?startup=true'),
    '/api/v3/firewall-bouncer/v1/decisions/stream',
  );
  assert.equal(normalisePath('/api/v3/firewall-bouncer/'), '/api/v3/firewall-bouncer');
});

test('pathAllowed: read covers GET and HEAD, write covers every verb, empty map denies', () => {
  const bouncer = { '/api/v3/firewall-bouncer': 'read' } as const;
  assert.equal(pathAllowed(bouncer, '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream', 'GET'), true);
  assert.equal(pathAllowed(bouncer, '/pbxcore/api/v3/firewall-bouncer/v1/whitelist', 'HEAD'), true);
  assert.equal(pathAllowed(bouncer, '/pbxcore/api/v3/firewall-bouncer/v1/decisions', 'POST'), false);
  assert.equal(pathAllowed(bouncer, '/pbxcore/api/v3/firewall', 'GET'), false);
  assert.equal(
    pathAllowed(bouncer, '/pbxcore/api/v3/firewall-bouncerx/v1', 'GET'),
    false,
    'prefixes match on segment boundaries',
  );
  assert.equal(pathAllowed({}, '/pbxcore/api/v3/extensions', 'GET'), false);
  const writer = { '/pbxcore/api/v3/extensions/': 'write' } as const;
  assert.equal(pathAllowed(writer, '/pbxcore/api/v3/extensions/201', 'DELETE'), true);
  assert.equal(pathAllowed(writer, '/pbxcore/api/v3/extensions:getForSelect', 'GET'), true);
});

test('pathAllowed: the most specific prefix decides', () => {
  const paths = { '/api/v3': 'write', '/api/v3/api-keys': 'read' } as const;
  assert.equal(pathAllowed(paths, '/pbxcore/api/v3/extensions/1', 'PUT'), true);
  assert.equal(pathAllowed(paths, '/pbxcore/api/v3/api-keys/1', 'PUT'), false);
  assert.equal(pathAllowed(paths, '/pbxcore/api/v3/api-keys', 'GET'), true);
});
