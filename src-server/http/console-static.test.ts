import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

const PAGE = '<!doctype html><title>console</title><script type="module" src="/assets/index-AbC123.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

/** A console build as electron-vite writes it: the page and a hashed script, each with .br and .gz beside it. */
function writeBuild(dir: string): void {
  mkdirSync(join(dir, 'assets'));
  for (const [name, content] of [
    ['index.html', PAGE],
    ['assets/index-AbC123.js', SCRIPT],
  ] as const) {
    writeFileSync(join(dir, name), content);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(content));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(content));
  }
}

describe('console files', () => {
  let staticDir: string;
  let server: TestServer;
  before(async () => {
    staticDir = makeTempDir('pbx-console-build-');
    writeBuild(staticDir);
    server = await startTestServer({ staticDir });
  });
  after(async () => {
    await server.close();
    removeTempDir(staticDir);
  });

  it('sends the brotli file to a browser that accepts it, with its type, and the same content once decoded', async () => {
    const res = await fetch(`${server.url}/assets/index-AbC123.js`, {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-encoding'), 'br');
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    assert.equal(res.headers.get('vary'), 'Accept-Encoding');
    assert.equal(await res.text(), SCRIPT);
  });

  it('sends gzip when brotli is not accepted, and the plain file when nothing is', async () => {
    const gzip = await fetch(`${server.url}/assets/index-AbC123.js`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers.get('content-encoding'), 'gzip');
    assert.equal(await gzip.text(), SCRIPT);
    const plain = await fetch(`${server.url}/assets/index-AbC123.js`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal(Number(plain.headers.get('content-length')), SCRIPT.length);
    assert.equal(await plain.text(), SCRIPT);
  });

  it('caches hashed assets for a year as immutable, and revalidates the page', async () => {
    const asset = await fetch(`${server.url}/assets/index-AbC123.js`);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const page = await fetch(`${server.url}/`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    assert.equal(page.headers.get('content-encoding'), 'br');
    assert.equal(await page.text(), PAGE);
  });

  it('answers a deep link with the page, revalidated, and an API path with the JSON envelope', async () => {
    const deep = await fetch(`${server.url}/peers/201`);
    assert.equal(deep.status, 200);
    assert.equal(deep.headers.get('cache-control'), 'no-cache');
    assert.equal(await deep.text(), PAGE);
    const api = await fetch(`${server.url}/pbxcore/api/v3/nothing-here`);
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /json/);
  });
});
