import { BLOCKLIST_FORMATS } from '../../src-shared/formats.ts';
import { BEARER_SECURITY, envelopeOf, ref, type JsonSchema } from './components.ts';

/**
 * Routes outside the declared v3 resources: auth, firewall export, older endpoints, the event
 * stream. Add a row when a feature registers a new fixed route; the coverage test fails until
 * every route the server answers is described here or in a declaration.
 */
export interface FixedRoute {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path, with `{param}` templates. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** public: no credential; bearer: JWT or API key (loopback bypass applies); bouncer: API key only; session: older endpoints. */
  access: 'public' | 'bearer' | 'bouncer' | 'session';
  parameters?: Array<{
    name: string;
    in: 'query' | 'header' | 'path';
    required?: boolean;
    schema: JsonSchema;
    description?: string;
  }>;
  request?: {
    contentType: 'application/json' | 'application/x-www-form-urlencoded';
    schema: JsonSchema;
    required?: boolean;
  };
  /** Success status and body; `envelope` wraps `schema` as the envelope's data. */
  response: { status: string; description: string; contentType?: string; schema?: JsonSchema; envelope?: boolean };
  errors: string[];
}

const decision: JsonSchema = {
  type: 'object',
  required: ['id', 'origin', 'type', 'scope', 'value', 'duration', 'scenario'],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'crc32(value + scenario) & 0x7fffffff.' },
    origin: { enum: ['pbx-fail2ban', 'pbx-networkfilters'] },
    type: { const: 'ban' },
    scope: { enum: ['Ip', 'Range'] },
    value: { type: 'string' },
    duration: { type: 'string', pattern: '^\\d+[sh]$' },
    scenario: { enum: ['pbx/sip', 'pbx/http', 'pbx/ami', 'pbx/iax', 'pbx/manual'] },
  },
};
const decisionStream: JsonSchema = {
  type: 'object',
  required: ['new', 'deleted'],
  additionalProperties: false,
  properties: { new: { type: 'array', items: decision }, deleted: { type: 'array', items: decision } },
};
const bouncerQuery: FixedRoute['parameters'] = [
  {
    name: 'startup',
    in: 'query',
    schema: { type: 'string' },
    description: 'Only "true" has an effect: full snapshot, cursor reset.',
  },
  { name: 'scopes', in: 'query', schema: { type: 'string' }, description: 'Accepted and ignored.' },
  { name: 'origins', in: 'query', schema: { type: 'string' }, description: 'Accepted and ignored.' },
];
const BOUNCER = '/pbxcore/api/v3/firewall-bouncer/v1';
/** The firewall export takes API keys only (either header), with the firewall_bouncer scope. */
const BOUNCER_SECURITY = [{ apiKeyAuth: [] }, { bearerAuth: [] }];
const bouncerErrors = ['401', '403'];
const credentials: JsonSchema = {
  type: 'object',
  required: ['login', 'password'],
  properties: {
    login: { type: 'string' },
    password: { type: 'string', format: 'password' },
    rememberMe: { type: 'boolean' },
  },
};
const peerItem: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, state: { type: 'string', examples: ['OK', 'UNKNOWN'] } },
};
const registryItem: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    state: { type: 'string', examples: ['OK', 'OFF'] },
    username: { type: 'string' },
    host: { type: 'string' },
  },
};

export const fixedRoutes: FixedRoute[] = [
  // Authentication
  {
    method: 'POST',
    path: '/pbxcore/api/v3/auth:login',
    tag: 'auth',
    summary: 'Log in: returns an access token and sets the refresh cookie.',
    access: 'public',
    request: { contentType: 'application/json', schema: credentials, required: true },
    response: {
      status: '200',
      description: 'Access token; the refresh token is set as the httpOnly `refreshToken` cookie.',
      envelope: true,
      schema: {
        type: 'object',
        required: ['accessToken', 'expiresIn'],
        properties: {
          accessToken: { type: 'string' },
          tokenType: { const: 'Bearer' },
          expiresIn: { type: 'integer' },
          login: { type: 'string' },
        },
      },
    },
    errors: ['400', '401', '422'],
  },
  {
    method: 'POST',
    path: '/pbxcore/api/v3/auth:refresh',
    tag: 'auth',
    summary: 'Exchange the refresh cookie for a new access token; the refresh token is rotated.',
    access: 'public',
    response: {
      status: '200',
      description: 'New access token.',
      envelope: true,
      schema: { type: 'object', properties: { accessToken: { type: 'string' }, expiresIn: { type: 'integer' } } },
    },
    errors: ['401'],
  },
  {
    method: 'POST',
    path: '/pbxcore/api/v3/auth:logout',
    tag: 'auth',
    summary: 'Revoke the refresh token family and clear the cookie.',
    access: 'public',
    response: { status: '200', description: 'Logged out.', envelope: true, schema: {} },
    errors: [],
  },
  {
    method: 'GET',
    path: '/pbxcore/api/v3/auth:status',
    tag: 'auth',
    summary: 'Whether an admin password is set and whether the caller is on loopback.',
    access: 'public',
    response: {
      status: '200',
      description: 'Status.',
      envelope: true,
      schema: {
        type: 'object',
        properties: { adminPasswordSet: { type: 'boolean' }, viaLocalhost: { type: 'boolean' } },
      },
    },
    errors: [],
  },
  {
    method: 'POST',
    path: '/pbxcore/api/v3/auth:setPassword',
    tag: 'auth',
    summary: 'Set the admin password (loopback, or an ADMIN token).',
    access: 'bearer',
    request: {
      contentType: 'application/json',
      required: true,
      schema: {
        type: 'object',
        required: ['password'],
        properties: { password: { type: 'string' }, currentPassword: { type: 'string' } },
      },
    },
    response: { status: '200', description: 'Password set.', envelope: true, schema: {} },
    errors: ['400', '401', '403', '422'],
  },
  {
    method: 'POST',
    path: '/admin-cabinet/session/start',
    tag: 'legacy',
    summary: 'Start a web-interface session (older clients).',
    access: 'public',
    parameters: [{ name: 'X-Requested-With', in: 'header', schema: { const: 'XMLHttpRequest' } }],
    request: {
      contentType: 'application/x-www-form-urlencoded',
      required: true,
      schema: {
        type: 'object',
        required: ['login', 'password'],
        properties: { login: { type: 'string' }, password: { type: 'string' } },
      },
    },
    response: {
      status: '200',
      description: 'Outcome; sets the session cookie on success.',
      schema: {
        type: 'object',
        required: ['success'],
        properties: { success: { type: 'boolean' }, reload: { type: 'string' }, message: { type: 'array' } },
      },
    },
    errors: ['400'],
  },
  // Firewall export (not enveloped)
  ...(['GET', 'HEAD'] as const).flatMap((method): FixedRoute[] => [
    {
      method,
      path: `${BOUNCER}/decisions/stream`,
      tag: 'firewall-bouncer',
      summary: 'Current bans as a CrowdSec decision stream, diffed per API key.',
      access: 'bouncer',
      parameters: bouncerQuery,
      response: {
        status: '200',
        description:
          '`{new, deleted}` (not enveloped); gzip-compressed for clients that accept it. HEAD answers the same without a body.',
        schema: decisionStream,
      },
      errors: bouncerErrors,
    },
    {
      method,
      path: `${BOUNCER}/decisions`,
      tag: 'firewall-bouncer',
      summary: "Key check used by some bouncer clients; with `ip`, that address's decisions (CrowdSec live mode).",
      access: 'bouncer',
      parameters: [
        {
          name: 'ip',
          in: 'query',
          schema: { type: 'string' },
          description: 'Only the decisions that apply to this address.',
        },
      ],
      response: {
        status: '200',
        description:
          'The active decisions (those for `ip` when given; `null` when none). Sent gzip-compressed to clients that accept it.',
        schema: { type: ['array', 'null'], items: decision },
      },
      errors: bouncerErrors,
    },
    {
      method,
      path: `${BOUNCER}/whitelist`,
      tag: 'firewall-bouncer',
      summary:
        'The operator allow-list: trusted network filters plus the fail2ban whitelist (flat array, not enveloped).',
      access: 'bouncer',
      response: {
        status: '200',
        description: 'Flat array of addresses and CIDRs.',
        schema: { type: 'array', items: { type: 'string' } },
      },
      errors: bouncerErrors,
    },
  ]),
  {
    method: 'GET',
    path: '/pbxcore/api/v3/firewall-bouncer/blocklist',
    tag: 'firewall-bouncer',
    summary:
      'The published decisions as a router feed (the formats of CrowdSec cs-blocklist-mirror), less the whitelist.',
    description:
      'The key as X-Api-Key, Bearer, or the HTTP Basic password (401 answers carry ' +
      'WWW-Authenticate). ETag and If-None-Match give 304 while nothing changed; gzip for clients ' +
      'that accept it. HEAD answers the same without a body.',
    access: 'bouncer',
    parameters: [
      {
        name: 'format',
        in: 'query',
        schema: { enum: [...BLOCKLIST_FORMATS], default: BLOCKLIST_FORMATS[0] },
        description: 'Feed format; another value gets 400.',
      },
      { name: 'ipv4only', in: 'query', schema: { type: 'string' }, description: 'Present: IPv4 entries only.' },
      {
        name: 'ipv6only',
        in: 'query',
        schema: { type: 'string' },
        description: 'Present: IPv6 entries only (not with ipv4only: 400).',
      },
      {
        name: 'origin',
        in: 'query',
        schema: { type: 'string' },
        description: 'Only decisions of this origin (pbx-fail2ban, pbx-networkfilters).',
      },
      {
        name: 'listname',
        in: 'query',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$', default: 'CrowdSec' },
        description: 'MikroTik address list name.',
      },
    ],
    response: {
      status: '200',
      description: 'The feed as text (not enveloped).',
      contentType: 'text/plain',
      schema: { type: 'string' },
    },
    errors: ['400', '401', '403'],
  },
  // Older endpoints
  {
    method: 'GET',
    path: '/pbxcore/api/sip/getPeersStatuses',
    tag: 'legacy',
    summary: 'Peer states (older endpoint).',
    access: 'session',
    response: { status: '200', description: 'Peers.', envelope: true, schema: { type: 'array', items: peerItem } },
    errors: ['401', '403'],
  },
  {
    method: 'POST',
    path: '/pbxcore/api/sip/getSipPeer',
    tag: 'legacy',
    summary: 'One peer in detail (older endpoint).',
    access: 'session',
    request: {
      contentType: 'application/json',
      required: true,
      schema: { type: 'object', required: ['peer'], properties: { peer: { type: 'string' } } },
    },
    response: {
      status: '200',
      description: 'Peer detail; all values are strings.',
      envelope: true,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    },
    errors: ['401', '403', '404', '422'],
  },
  {
    method: 'GET',
    path: '/pbxcore/api/sip/getRegistry',
    tag: 'legacy',
    summary: 'Provider registrations (older endpoint).',
    access: 'session',
    response: {
      status: '200',
      description: 'Registrations.',
      envelope: true,
      schema: { type: 'array', items: registryItem },
    },
    errors: ['401', '403'],
  },
  // Push channel for asynchronous requests
  {
    method: 'GET',
    path: '/pbxcore/api/v3/events',
    tag: 'events',
    summary: 'Results of asynchronous requests: a Server-Sent Event stream, or one stored result.',
    description:
      'Without jobId: `text/event-stream`; first `event: ready`, then one `event: result` per ' +
      'finished job, `id` = jobId, `data` = `{jobId, channel, status, envelope}`. ' +
      'With jobId: the finished envelope with the status the request would have had, 202 while ' +
      'the job runs, 404 when unknown or older than 120 s. ' +
      'A caller sees only the jobs it started (loopback sees all).',
    access: 'bearer',
    parameters: [
      {
        name: 'channel',
        in: 'query',
        required: true,
        schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$' },
      },
      {
        name: 'jobId',
        in: 'query',
        schema: { type: 'string' },
        description: 'Fetch one finished result instead of streaming.',
      },
    ],
    response: {
      status: '200',
      description: 'The event stream, or the stored envelope.',
      contentType: 'text/event-stream',
      schema: { type: 'string' },
    },
    errors: ['400', '401', '403', '404', '503'],
  },
];

/** The operation object of a fixed route. */
export function fixedOperation(route: FixedRoute, operationId: string): Record<string, unknown> {
  const security = route.access === 'public' ? [] : route.access === 'bouncer' ? BOUNCER_SECURITY : BEARER_SECURITY;
  const body =
    route.response.schema && (route.response.envelope ? envelopeOf(route.response.schema) : route.response.schema);
  const content = body && {
    [route.response.contentType ?? 'application/json']: { schema: body },
    ...(route.response.contentType ? { 'application/json': { schema: ref('Envelope') } } : {}),
  };
  return {
    operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security,
    ...(route.parameters ? { parameters: route.parameters } : {}),
    ...(route.request
      ? {
          requestBody: {
            required: route.request.required ?? false,
            content: { [route.request.contentType]: { schema: route.request.schema } },
          },
        }
      : {}),
    responses: {
      [route.response.status]: {
        description: route.response.description,
        ...(content && route.method !== 'HEAD' ? { content } : {}),
      },
      ...Object.fromEntries(route.errors.map((s) => [s, { $ref: `#/components/responses/Error${s}` }])),
    },
  };
}
