import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServer } from '../src-server/index.ts';
import { request } from '../src-server/test-support/http.ts';
import { makeTempDir, removeTempDir } from '../src-server/test-support/temp-db.ts';
import { readDesktopSettings } from './desktop-settings.ts';
import { startEmbeddedServer } from './embedded-server.ts';
import { describeStartFailure } from './start-failure.ts';

describe('desktop host', () => {
  let userData: string;
  let outDir: string;

  before(() => {
    userData = makeTempDir('pbx-desktop-');
    outDir = makeTempDir('pbx-desktop-out-');
  });
  after(() => {
    removeTempDir(userData);
    removeTempDir(outDir);
  });

  it('listens on loopback with a free port unless desktop.json or PBX_* say otherwise', () => {
    assert.deepEqual(readDesktopSettings(userData, {}), {
      host: '127.0.0.1',
      port: 0,
      settingsFile: join(userData, 'desktop.json'),
    });
    writeFileSync(join(userData, 'desktop.json'), JSON.stringify({ port: 8090 }));
    assert.equal(readDesktopSettings(userData, {}).port, 8090);
    assert.equal(readDesktopSettings(userData, { PBX_PORT: '8100' }).port, 8100);
    writeFileSync(join(userData, 'desktop.json'), '{"port": "not a port"');
    assert.equal(readDesktopSettings(userData, {}).port, 0, 'unreadable settings fall back to the defaults');
    rmSync(join(userData, 'desktop.json'));
  });

  it('starts the server with its data under userData, reachable on 127.0.0.1 with the localhost bypass, and stops it', async () => {
    const server = await startEmbeddedServer(outDir, userData, readDesktopSettings(userData, {}), (o) =>
      createServer({ ...o, logLevel: 'silent' }),
    );
    try {
      assert.ok(server.port > 0);
      assert.equal(server.config.dataDir, join(userData, 'data'));
      const info = await request(`http://127.0.0.1:${server.port}/pbxcore/api/v3/auth:status`);
      assert.equal(info.status, 200);
      assert.equal(info.json.data.viaLocalhost, true);
    } finally {
      await server.stop();
    }
    await assert.rejects(request(`http://127.0.0.1:${server.port}/pbxcore/api/v3/system:ping`), /ECONNREFUSED/);
  });

  it('reports a taken port with what to do', async () => {
    const blocker = createNetServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const settings = { host: '127.0.0.1', port, settingsFile: join(userData, 'desktop.json') };
      const error = await startEmbeddedServer(outDir, userData, settings, (o) =>
        createServer({ ...o, logLevel: 'silent' }),
      ).then(
        () => assert.fail('the start should fail'),
        (e: unknown) => e,
      );
      const { title, message } = describeStartFailure(error, settings, userData);
      assert.equal(title, 'The port is already in use');
      assert.match(message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      assert.match(message, /desktop\.json/);
      assert.match(message, /"port": 0/);
    } finally {
      blocker.close();
    }
  });

  it('explains a missing server build and a database driver built for another runtime', () => {
    const settings = readDesktopSettings(userData, {});
    const missing = Object.assign(new Error("Cannot find module '/app/out/server/index.js'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    assert.match(describeStartFailure(missing, settings, userData).message, /npm run build/);
    const abi = new Error('The module was compiled against a different Node.js version using NODE_MODULE_VERSION 115.');
    assert.match(describeStartFailure(abi, settings, userData).message, /npm run desktop:install/);
  });
});
