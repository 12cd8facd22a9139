import type Router from '@koa/router';

export interface LiveRoute {
  /** Methods of one router layer; a catch-all (`router.all`) lists every method Node knows. */
  methods: string[];
  /** OpenAPI form: `:param` becomes `{param}`. */
  path: string;
  /** Set for layers registered with a RegExp: `path` is then its source. */
  pattern?: RegExp;
}

/** Every layer of the fixed-route router: its path and methods (HEAD included where GET is). */
export function routesOf(router: Router): LiveRoute[] {
  const out: LiveRoute[] = [];
  for (const layer of router.stack) {
    if (layer.path instanceof RegExp) {
      out.push({ methods: [...layer.methods], path: layer.path.source, pattern: layer.path });
      continue;
    }
    const path = layer.path
      .replace(/\\:/g, '\u0000')
      .replace(/:([A-Za-z0-9_]+)/g, '{$1}')
      .replace(/\u0000/g, ':');
    out.push({ methods: [...layer.methods], path });
  }
  return out;
}
