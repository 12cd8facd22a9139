import type { Middleware } from 'koa';
import serveStatic from 'koa-static';
import { resolve, sep } from 'node:path';

/** Vite names every file under assets/ after its content hash: a new build means new names. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page itself names the current hashes, so it is always revalidated. */
const REVALIDATE = 'no-cache';

/**
 * Cache headers of a console file: hashed assets are cached for a year and never revalidated (a
 * reload fetches only index.html), everything else is revalidated each time.
 */
export function consoleCacheControl(filePath: string): string {
  return filePath.includes(`${sep}assets${sep}`) ? IMMUTABLE : REVALIDATE;
}

const options = (root: string): serveStatic.Options => ({
  // koa-send hands setHeaders the absolute path.
  index: 'index.html',
  // The build writes .br and .gz beside each text file (electron.vite.config.ts); koa-send sends the
  // one the browser accepts with its Content-Encoding, and the file as is otherwise.
  brotli: true,
  gzip: true,
  setHeaders: (res, filePath) => {
    res.setHeader(
      'Cache-Control',
      consoleCacheControl(filePath.startsWith(root) ? filePath.slice(root.length) : filePath),
    );
    res.setHeader('Vary', 'Accept-Encoding');
  },
});

/**
 * The console's files from `root`, then, for any other GET or HEAD that is not an API path, the
 * app shell (index.html) so a deep link such as /peers/201 opens its screen.
 */
export function serveConsole(root: string, isApiPath: (path: string) => boolean): Middleware[] {
  const base = resolve(root);
  const files = serveStatic(base, options(base));
  const shell = serveStatic(base, options(base));
  return [
    files,
    async (ctx, next) => {
      if ((ctx.method === 'GET' || ctx.method === 'HEAD') && !isApiPath(ctx.path)) {
        ctx.path = '/index.html';
        return shell(ctx, next);
      }
      return next();
    },
  ];
}
