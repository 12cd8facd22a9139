// The console's icon (issue 6/6 item 9): /favicon.ico answers an icon, not the page, and the page links it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';

describe('console: favicon', () => {
  const app = useConsole({ openAt: '/' });

  it('/favicon.ico is an icon image, and the page links it', async () => {
    const res = await fetch(`${app.server.url}/favicon.ico`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^image\//);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // An ICO file starts with reserved 0, type 1 (icon), and holds at least one image.
    assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0]);
    assert.ok(bytes[4]! >= 1);
    const href = await app.page.locator('link[rel="icon"]').getAttribute('href');
    assert.equal(href, '/favicon.ico');
    // The browser loads it as an image the link names.
    const size = await app.page.evaluate(
      `new Promise((ok) => { const i = new Image(); i.onload = () => ok(i.naturalWidth); i.onerror = () => ok(0); i.src = '/favicon.ico'; })`,
    );
    assert.ok(Number(size) >= 16, `the icon decodes (width ${String(size)})`);
  });
});
