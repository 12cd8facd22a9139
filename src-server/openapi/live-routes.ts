import type Router from '@koa/router';

/** Each running server's fixed-route router, so that tests can compare what is served with the document. */
export const liveRouters = new WeakMap<object, Router>();

export interface LiveRoute {
  method: string;
  /** OpenAPI form: `:param` becomes `{param}`. */
  path: string;
}

/** Every method and path the fixed-route router answers (HEAD included where registered). */
export function routesOf(router: Router): LiveRoute[] {
  const out: LiveRoute[] = [];
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    const path = layer.path.replace(/\\:/g, '\u0000').replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\u0000/g, ':');
    for (const method of layer.methods) out.push({ method, path });
  }
  return out;
}
