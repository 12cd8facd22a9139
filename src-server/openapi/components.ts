/** Shared pieces of the OpenAPI document: envelope, errors, pagination, security schemes. */

export type JsonSchema = Record<string, unknown>;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The v3 envelope with a given `data` schema. */
export const envelopeOf = (data: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
  allOf: [ref('Envelope'), { type: 'object', properties: { data, ...extra } }],
});

export const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** Error statuses an operation can answer, by kind of operation. */
export const ERROR_STATUSES = {
  common: ['400', '401', '403', '503'],
  record: ['404'],
  write: ['422'],
  create: ['409'],
} as const;

const ERROR_TEXT: Record<string, string> = {
  '400': 'Malformed request: bad path, custom method, channel name or body.',
  '401': 'Missing or invalid Bearer credential (a presented credential is checked even from loopback).',
  '403': 'Authenticated but not permitted (level, allowed_paths, source address).',
  '404': 'Unknown endpoint, or the record does not exist.',
  '405': 'HTTP method or custom method not allowed on the resource.',
  '409': 'Conflict, such as a duplicate id.',
  '422': 'Payload validation failed, or the action was unsuccessful without a status.',
  '503': 'The request queue is full; retry with backoff.',
};

export const errorResponses = (statuses: readonly string[]) =>
  Object.fromEntries(statuses.map((s) => [s, { $ref: `#/components/responses/Error${s}` }]));

export const baseComponents = {
  schemas: {
    Messages: {
      type: 'object',
      description: 'Present as an object when there are messages; an empty array otherwise.',
      properties: {
        error: { type: 'array', items: { type: 'string' } },
        warning: { type: 'array', items: { type: 'string' } },
        info: { type: 'array', items: { type: 'string' } },
      },
    },
    Pagination: {
      type: 'object',
      required: ['total', 'limit', 'offset', 'hasMore'],
      properties: {
        total: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 0 },
        offset: { type: 'integer', minimum: 0 },
        hasMore: { type: 'boolean' },
      },
    },
    Meta: {
      type: 'object',
      required: ['timestamp', 'hash'],
      properties: { timestamp: { type: 'string', description: 'ISO 8601 with offset.' }, hash: { type: 'string' } },
    },
    Envelope: {
      type: 'object',
      description: 'The standard v3 response envelope. An E-Tag header carries the hash.',
      required: ['result', 'data', 'messages', 'function', 'processor', 'pid'],
      properties: {
        result: { type: 'boolean', description: 'Success flag.' },
        data: { description: 'Payload; [] on failure.' },
        messages: { oneOf: [{ type: 'array', maxItems: 0 }, ref('Messages')] },
        function: { type: 'string', description: 'Action that ran; empty on errors raised before dispatch.' },
        processor: { type: 'string', description: 'Processing unit that ran; empty on errors raised before dispatch.' },
        pid: { type: 'integer', description: 'Worker that ran the action.' },
        httpCode: { type: 'integer', description: 'Present only when the action set it.' },
        pagination: ref('Pagination'),
        meta: ref('Meta'),
        jsonapi: { type: 'object', properties: { version: { type: 'string' } }, description: 'Older endpoints only.' },
      },
    },
    ErrorEnvelope: {
      allOf: [
        ref('Envelope'),
        {
          type: 'object',
          required: ['messages'],
          properties: {
            result: { const: false },
            data: { type: 'array', maxItems: 0 },
            messages: {
              type: 'object',
              required: ['error'],
              properties: { error: { type: 'array', items: { type: 'string' } } },
            },
            message: {
              type: 'string',
              description: 'Firewall-export errors only: the first error, for CrowdSec clients.',
            },
          },
        },
      ],
    },
    AsyncAccepted: envelopeOf({
      type: 'object',
      required: ['jobId', 'channel'],
      properties: { jobId: { type: 'string' }, channel: { type: 'string' } },
    }),
  },
  responses: Object.fromEntries(
    Object.entries(ERROR_TEXT).map(([status, description]) => [
      `Error${status}`,
      { description, content: jsonContent(ref('ErrorEnvelope')) },
    ]),
  ),
  parameters: {
    limit: {
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 1000 },
      description: 'Page size (default 50 when paging).',
    },
    offset: {
      name: 'offset',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 0 },
      description: 'Records to skip.',
    },
    id: {
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'string' },
      description: 'Record id; never contains "/" or ":".',
    },
    asyncChannel: {
      name: 'X-Async-Channel',
      in: 'header',
      required: false,
      schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$' },
      description:
        'Run asynchronously: the answer is 200 at once with data {jobId, channel}; the finished ' +
        'envelope is pushed on GET /pbxcore/api/v3/events?channel=<name> and kept 120 s.',
    },
  },
  securitySchemes: {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'Access token from auth:login (HS256, 900 s), or an API key (64 hex characters) sent as a Bearer credential.',
    },
    apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'API key (64 hex characters).' },
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: 'pbx_session',
      description:
        'Web-interface session from POST /admin-cabinet/session/start; requests that change data ' +
        'must also send X-Requested-With: XMLHttpRequest.',
    },
  },
};

/** Security of an authenticated v3 operation. Loopback callers (127.0.0.1, ::1) without a credential need none. */
export const BEARER_SECURITY = [{ bearerAuth: [] }, { apiKeyAuth: [] }, { sessionCookie: [] }];
