import fc from 'fast-check';

/**
 * The adversarial corpus (test-only): every path and verb of the served OpenAPI document crossed
 * with every class of bad input. Each case is meant to be invalid, so a server that answers all
 * of them must leave its stored data exactly as it was. Random parts come from fast-check with a
 * fixed seed, so a failing case is reproduced by running the suite again.
 */

/** Which answer shape a route owes: v3 envelope, bouncer (envelope + `message` on errors), legacy (+ `jsonapi`), session/start. */
export type RouteFamily = 'v3' | 'bouncer' | 'legacy' | 'module' | 'session-start' | 'events';

export interface CorpusRoute {
  method: string;
  /** Path template from the document, with `{param}` placeholders. */
  template: string;
  family: RouteFamily;
  /** Top-level request body properties and their JSON types, when the document declares a body. */
  bodyProperties: Record<string, string>;
}

export interface AdversarialCase {
  /** Input class, for the failure summary: `malformed-json`, `extreme-number`, ... */
  klass: string;
  method: string;
  path: string;
  family: RouteFamily;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPE = { 'content-type': 'application/json' };
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];

/** Ids that name no record and are not canonical ids: odd numbers, escapes, traversal, injection. */
export const BAD_IDS = [
  'adversarial-missing',
  '-0',
  '1e308',
  '9007199254740993',
  'NaN',
  '-1',
  '0x10',
  '1.5',
  '%00',
  'a%00b',
  '%FF',
  '%E0%A4%A',
  '..%2F..%2Fetc%2Fpasswd',
  "1'%20OR%20'1'%3D'1",
  '%F0%9F%98%80',
  'x'.repeat(300),
  '%3A%3Affff%3A127.0.0.1',
];

/** JSON number literals a JS client could not even produce, sent as raw text. */
const EXTREME_NUMBERS = [
  '1e308',
  '-1e308',
  '-0',
  '9007199254740993',
  '1e-400',
  '123456789012345678901234567890',
  '0.1e999',
];
const EXTREME_NUMBER_STRINGS = ['NaN', 'Infinity', '-Infinity', '1e308', '-0', '0x1F', ' 7 ', '9007199254740993'];

/** Network values that must never validate, and IPv4-mapped forms that must be handled consistently. */
export const BAD_NETWORKS = [
  '10.0.0.0/33',
  '10.0.0.0/-1',
  '256.1.1.1',
  '1.2.3',
  '1.2.3.4/8/8',
  '::ffff:10.0.0.1/129',
  'fe80::1%eth0',
  '::ffff:999.0.0.1',
  '0.0.0.0/0, ::/0, garbage',
  '10.0.0.1 10.0.0.2',
  '1.2.3.4\u0000',
  '',
];
export const MAPPED_ADDRESSES = [
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:0a00:0001',
  '0:0:0:0:0:ffff:10.0.0.1',
  '::ffff:10.0.0.0/104',
];

interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  readOnly?: boolean;
  properties?: Record<string, SchemaObject>;
  allOf?: SchemaObject[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

/** The routes of the served OpenAPI document, with the family that decides the answer shape. */
export function routesFromOpenApi(document: OpenApiDocument): CorpusRoute[] {
  const routes: CorpusRoute[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as
        | { requestBody?: { content?: Record<string, { schema?: SchemaObject }> } }
        | undefined;
      if (!operation) continue;
      const schema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
      routes.push({
        method: method.toUpperCase(),
        template,
        family: familyOf(template),
        bodyProperties: writableProperties(document, schema),
      });
    }
  }
  return routes;
}

function familyOf(template: string): RouteFamily {
  if (template.startsWith('/pbxcore/api/v3/firewall-bouncer/')) return 'bouncer';
  if (template === '/pbxcore/api/v3/events') return 'events';
  if (template.startsWith('/pbxcore/api/v3/')) return 'v3';
  if (template.startsWith('/pbxcore/api/sip/')) return 'legacy';
  if (template.startsWith('/admin-cabinet/session/start')) return 'session-start';
  return 'module';
}

/** Writable top-level properties of a body schema and their JSON types (`$ref` and `allOf` followed). */
function writableProperties(
  document: OpenApiDocument,
  schema: SchemaObject | undefined,
  depth = 0,
): Record<string, string> {
  if (!schema || depth > 5) return {};
  if (schema.$ref)
    return writableProperties(document, document.components?.schemas?.[schema.$ref.split('/').pop()!], depth + 1);
  const out: Record<string, string> = {};
  for (const part of schema.allOf ?? []) Object.assign(out, writableProperties(document, part, depth + 1));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.readOnly) continue;
    out[name] = Array.isArray(property.type)
      ? (property.type.find((t) => t !== 'null') ?? 'string')
      : (property.type ?? 'string');
  }
  return out;
}

/** Fills `{param}` placeholders with `id`. */
const fill = (template: string, id: string) => template.replace(/\{[^}]+\}/g, id);

/**
 * Values of the wrong JSON type for a property declared as `type`. The first is never valid,
 * even after a lenient sanitiser (`"12"` may become 12, so it is never first).
 */
function wrongTypeValues(type: string): string[] {
  switch (type) {
    case 'integer':
    case 'number':
      return ['{}', '"12"', 'true', '[1]', 'null', '"NaN"'];
    case 'boolean':
      return ['{}', '"maybe"', '2', '[]', '-1'];
    case 'object':
      return ['7', '"{"', '[]', 'true', '[["a","b"]]'];
    case 'array':
      return ['{}', '"a"', '3', '{"0":"a"}'];
    default:
      return ['{"$ne":null}', '12345', 'true', '["a"]', 'null'];
  }
}

const objectText = (entries: Array<[string, string]>) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/**
 * One wrong-type value per declared field, so the body can never validate: the first field always
 * gets the never-valid value, the others variant `pick`.
 */
function anchorEntries(route: CorpusRoute, pick = 0): Array<[string, string]> {
  return Object.entries(route.bodyProperties).map(([name, type], index) => {
    const values = wrongTypeValues(type);
    return [name, values[index === 0 ? 0 : pick % values.length]!];
  });
}

/**
 * An object body: the never-valid anchor first, then `extra` (JSON keeps the last duplicate, so
 * `extra` replaces some anchored fields and every other declared field stays invalid).
 */
function withAllWrong(route: CorpusRoute, extra: Array<[string, string]>, pick = 0): string {
  return objectText([...anchorEntries(route, pick), ...extra]);
}

/** A form body that can never validate: numbers and booleans that are words, required text left empty. */
function formAnchor(route: CorpusRoute): string {
  const value = (type: string) =>
    type === 'integer' || type === 'number' ? 'NaN' : type === 'boolean' ? 'maybe' : type === 'object' ? '%7B' : '';
  const entries = Object.entries(route.bodyProperties).map(
    ([name, type]) => `${encodeURIComponent(name)}=${value(type)}`,
  );
  return ['a=%ZZ', '%00=%00', 'x[]=1', ...entries].join('&');
}

/** Malformed JSON texts: truncated, trailing garbage, single quotes, comments, BOM, lone tokens. */
const MALFORMED_JSON = [
  '{',
  '{"a":}',
  '[1,2',
  'nul',
  '{"a":1}}',
  "{'a':1}",
  '{"a":1,}',
  '{"a":1 /* c */}',
  '\ufeff{"a":1',
  '{"a":"\\x41"}',
  '{"a":"\\ud800"',
  '{"a":1e}',
  '--1',
  '{"a" 1}',
  '\u0000',
];

/** Every case of the corpus for one route and one caller (the caller's headers are merged in). */
export function casesForRoute(route: CorpusRoute, caller: Record<string, string>, seed: number): AdversarialCase[] {
  const cases: AdversarialCase[] = [];
  const hasParams = route.template.includes('{');
  const ids = hasParams ? BAD_IDS : [''];
  const basePath = fill(route.template, hasParams ? 'adversarial-missing' : '');
  const add = (
    klass: string,
    path: string,
    headers: Record<string, string | string[]> = {},
    body?: string | Buffer,
    method = route.method,
  ) =>
    cases.push({
      klass,
      method,
      path,
      family: route.family,
      headers: { ...caller, ...headers },
      body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body),
    });
  const sendsBody = BODY_METHODS.has(route.method);
  const wrongBody = withAllWrong(route, []);

  // Bad ids in every placeholder.
  for (const id of ids.slice(hasParams ? 0 : 1))
    add('bad-id', fill(route.template, id), sendsBody ? JSON_TYPE : {}, sendsBody ? wrongBody : undefined);

  // Duplicate and odd query parameters (reads and writes alike).
  for (const query of [
    'limit=1&limit=2',
    'offset=a&offset=1',
    'limit=1e308&offset=-0',
    'limit=9007199254740993',
    'limit=NaN&offset=Infinity',
    'startup=true&startup=false&scopes=Ip&scopes=Range',
    'channel=a&channel=b',
    'category=SIP&category=AMI&category[]=x',
    'ip=1.2.3.4&ip=5.6.7.8&range=10.0.0.0/33&scope=Ip&scope=Range',
    'value=%00&type=ban&type=captcha&origins=a&origins=b',
    '__proto__=x&constructor=y&toString=z',
    'a[b][c]=1&a=2',
  ]) {
    add('query', `${basePath}?${query}`, sendsBody ? JSON_TYPE : {}, sendsBody ? wrongBody : undefined);
  }

  // Bad network values in every query parameter the network routes read.
  for (const network of [...BAD_NETWORKS, ...MAPPED_ADDRESSES]) {
    const q = encodeURIComponent(network);
    add(
      'network',
      `${basePath}?ip=${q}&range=${q}&value=${q}&category=${q}`,
      sendsBody ? JSON_TYPE : {},
      sendsBody ? withAllWrong(route, []) : undefined,
    );
  }

  // Long URLs and headers.
  add('long-url', `${basePath}?q=${'a'.repeat(6000)}`);
  add('long-url', `${basePath}/${'%41'.repeat(2000)}`);
  add('long-header', basePath, { 'x-long': 'h'.repeat(9000) }, sendsBody ? wrongBody : undefined);
  add('long-header', basePath, { 'x-huge': 'h'.repeat(40_000) });
  add('long-header', basePath, {
    'user-agent': 'u'.repeat(8000),
    referer: `http://x/${'r'.repeat(4000)}`,
    'x-async-channel': 'c'.repeat(2000),
  });
  add('long-header', basePath, { 'x-api-key': 'f'.repeat(4096) });
  add('long-header', basePath, { authorization: `Bearer ${'e'.repeat(6000)}` });
  add('duplicate-header', basePath, { 'x-api-key': ['a'.repeat(64), 'b'.repeat(64)] });
  add(
    'duplicate-header',
    basePath,
    { 'content-type': ['application/json', 'text/plain'] },
    sendsBody ? wrongBody : undefined,
  );

  // Other verbs on the same path: 405/404 with the envelope, never a 500. This route's body schema
  // says nothing about another verb's, so the body is one no save accepts: not an object.
  for (const method of [
    'OPTIONS',
    'TRACE',
    'PROPFIND',
    'PURGE',
    ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => m !== route.method),
  ]) {
    if (method === 'GET' || method === 'OPTIONS' || method === 'TRACE' || method === 'PROPFIND' || method === 'PURGE')
      add('verb', basePath, {}, undefined, method);
    else add('verb', basePath, JSON_TYPE, '["not an object"]', method);
  }

  if (!WRITE_METHODS.has(route.method)) return cases;

  // Bodies: malformed JSON, wrong roots, wrong types, extremes, nesting, sizes, encodings, types.
  for (const text of MALFORMED_JSON) add('malformed-json', basePath, JSON_TYPE, text);
  for (const root of ['[]', '"text"', '42', 'null', 'true', '[{"a":1}]']) add('wrong-root', basePath, JSON_TYPE, root);
  for (let pick = 0; pick < 6; pick++) add('wrong-type', basePath, JSON_TYPE, withAllWrong(route, [], pick));
  // Every numeric field but the first declared one, which keeps its anchor.
  const numeric = Object.keys(route.bodyProperties).filter(
    (k, i) => i > 0 && ['integer', 'number'].includes(route.bodyProperties[k]!),
  );
  for (const number of EXTREME_NUMBERS) {
    add(
      'extreme-number',
      basePath,
      JSON_TYPE,
      withAllWrong(route, [...numeric.map((k): [string, string] => [k, number]), ['limit', number], ['port', number]]),
    );
  }
  for (const text of EXTREME_NUMBER_STRINGS)
    add(
      'extreme-number',
      basePath,
      JSON_TYPE,
      withAllWrong(route, [
        ...numeric.map((k): [string, string] => [k, JSON.stringify(text)]),
        ['port', JSON.stringify(text)],
      ]),
    );
  for (const depth of [40, 1000, 100_000]) {
    add('deep-nesting', basePath, JSON_TYPE, '['.repeat(depth) + ']'.repeat(depth));
    add('deep-nesting', basePath, JSON_TYPE, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
  }
  add('deep-nesting', basePath, JSON_TYPE, withAllWrong(route, [['nested', `${'['.repeat(30)}${']'.repeat(30)}`]]));
  add('huge-body', basePath, JSON_TYPE, `{"description":${JSON.stringify('x'.repeat(1024 * 1024 + 100))}}`);
  add('huge-body', basePath, JSON_TYPE, `[${'1,'.repeat(600_000)}1]`);
  add(
    'huge-body',
    basePath,
    { 'content-type': 'application/x-www-form-urlencoded' },
    `${formAnchor(route)}&a=${'b'.repeat(1100 * 1024)}`,
  );
  for (const bytes of [
    [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d],
    [0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d],
    [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d],
    [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d],
    [0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d],
  ]) {
    add('invalid-utf8', basePath, JSON_TYPE, Buffer.from(bytes));
    add(
      'invalid-utf8',
      basePath,
      { 'content-type': 'application/x-www-form-urlencoded' },
      Buffer.concat([Buffer.from(`${formAnchor(route)}&b=`), Buffer.from(bytes)]),
    );
  }
  const strings = Object.keys(route.bodyProperties).filter((k) => route.bodyProperties[k] === 'string');
  add('nul-bytes', basePath, JSON_TYPE, withAllWrong(route, [['x\u0000', '"\u0000"']]));
  add('nul-bytes', basePath, JSON_TYPE, Buffer.from('{"a":"\u0000"}\u0000'));
  add(
    'nul-bytes',
    basePath,
    JSON_TYPE,
    withAllWrong(
      route,
      strings.slice(1).map((k): [string, string] => [k, JSON.stringify('a\u0000b')]),
    ),
  );
  for (const type of [
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/json; charset=utf-16',
    'application/x-www-form-urlencoded; charset=klingon',
    '',
    'application/json, text/plain',
    'application/jsonp',
  ]) {
    add(
      'content-type',
      basePath,
      { 'content-type': type },
      type.startsWith('application/x-www-form-urlencoded') ? formAnchor(route) : withAllWrong(route, []),
    );
  }
  add('content-type', basePath, { 'content-type': 'application/x-www-form-urlencoded' }, formAnchor(route));
  for (const network of [...BAD_NETWORKS, ...MAPPED_ADDRESSES.slice(0, 2)]) {
    const value = JSON.stringify(network);
    // The first declared field keeps its anchor, so the body stays invalid whatever the network value.
    const fields = ['permit', 'deny', 'network', 'whitelist', 'ip', 'host'].filter(
      (k) => k !== Object.keys(route.bodyProperties)[0],
    );
    add(
      'network',
      basePath,
      JSON_TYPE,
      withAllWrong(
        route,
        fields.map((k): [string, string] => [k, value]),
      ),
    );
  }

  // Property-based: random JSON of fast-check's choosing, then the anchor (so it never validates).
  const randomBodies = fc.sample(fc.jsonValue({ maxDepth: 4 }), { seed: seed + cases.length, numRuns: 8 });
  for (const value of randomBodies) {
    const text =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? JSON.stringify(value).slice(1, -1)
        : `"random":${JSON.stringify(value)}`;
    const anchor = withAllWrong(route, [], 2).slice(1, -1);
    add('random-json', basePath, JSON_TYPE, `{${[text, anchor].filter((part) => part !== '').join(',')}}`);
  }
  return cases;
}

/** Canonical forms: spellings of one range, each stored and unbanned as the network it names. */
export const RANGE_SPELLINGS: Array<{ canonical: string; spellings: string[] }> = [
  {
    canonical: '203.0.113.0/24',
    spellings: [
      '203.0.113.77/24',
      '203.0.113.255/24',
      '::ffff:203.0.113.9/120',
      '::FFFF:CB00:7101/120',
      ' 203.0.113.0/24 ',
    ],
  },
  {
    canonical: '2001:db8:bad::/48',
    spellings: ['2001:DB8:BAD::1/48', '2001:db8:bad:ffff::/48', '2001:0db8:0bad:0000::/48'],
  },
  { canonical: '198.51.100.128/25', spellings: ['198.51.100.200/25', '::ffff:198.51.100.129/121'] },
  {
    canonical: '198.51.100.77',
    spellings: ['198.51.100.77/32', '::ffff:198.51.100.77', '::ffff:198.51.100.77/128', '198.51.100.77'],
  },
  { canonical: '2001:db8::77', spellings: ['2001:db8::77/128', '2001:DB8:0:0::77'] },
];

/** Unspecified and mapped catch-alls: no packet comes from them, so a ban of them is refused (422). */
export const UNSPECIFIED_RANGES = [
  '0.0.0.0',
  '0.0.0.0/8',
  '0.1.2.3',
  '0.1.2.3/16',
  '::',
  '::/128',
  '::/64',
  '::ffff:0:0/96',
  '::ffff:0:0/95',
  '::fffe:0:0/80',
  '::ffff:0.0.0.0/104',
  '::ffff:0.0.0.0/100',
];

/** Range queries of `/v1/decisions`: with a range ban and a filter entry in force, what each must find. */
export const RANGE_QUERIES: Array<{ query: string; expect: string[] | null }> = [
  { query: 'ip=198.51.101.5', expect: ['198.51.101.0/24'] },
  { query: 'ip=198.51.101.0', expect: ['198.51.101.0/24'] },
  { query: 'ip=198.51.101.255', expect: ['198.51.101.0/24'] },
  { query: 'ip=::ffff:198.51.101.5', expect: ['198.51.101.0/24'] },
  { query: 'ip=198.51.102.5', expect: ['198.51.102.0/24'] },
  { query: 'ip=198.51.103.5', expect: null },
  { query: 'range=198.51.101.0/25', expect: ['198.51.101.0/24'] },
  { query: 'range=198.51.101.77/24', expect: ['198.51.101.0/24'] },
  { query: 'range=198.51.0.0/16', expect: null },
  { query: 'range=198.51.0.0/16&contains=false', expect: ['198.51.101.0/24', '198.51.102.0/24'] },
  { query: 'ip=198.51.101.5&scope=range', expect: ['198.51.101.0/24'] },
  { query: 'ip=198.51.101.5&scope=ip', expect: null },
  { query: 'ip=198.51.101.5&origins=pbx-fail2ban', expect: null },
];

/** Malformed range queries: each a 400 naming the parameter. */
export const BAD_RANGE_QUERIES = [
  'ip=198.51.101.0/24',
  'ip=1.2.3',
  'ip=fe80::1%25eth0',
  'range=10.0.0.0/33',
  'range=garbage',
  'ip=198.51.101.5&contains=maybe',
  'ip=%00',
];

/** Filter ids a backup must never carry (422 naming the field): beyond 2^31 - 1, not integers, or not numbers at all. */
export const BAD_IMPORT_IDS: unknown[] = [
  2 ** 31,
  2 ** 53 + 2,
  1e308,
  Number.MAX_SAFE_INTEGER,
  0,
  -1,
  1.5,
  '7',
  null,
  true,
  [1],
  { id: 1 },
];

/** Values of the wrong JSON type in a backup: never coerced, always 422 naming the field. */
export const MISTYPED_IMPORTS: Array<{ section: 'fail2ban' | 'generalSettings'; field: string; value: unknown }> = [
  { section: 'fail2ban', field: 'maxretry', value: '7' },
  { section: 'fail2ban', field: 'bantime', value: '3600' },
  { section: 'fail2ban', field: 'whitelist', value: 10 },
  { section: 'generalSettings', field: 'APIQueueMaxLength', value: '77' },
  { section: 'generalSettings', field: 'APIQueueMaxLength', value: true },
];
