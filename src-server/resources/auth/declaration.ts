import { z } from 'zod';
import type { CustomMethodDecl, ResourceDeclaration } from '../../resource-kit/types.ts';
import { NO_BODY, NO_QUERY } from '../../resource-kit/contract.ts';
import { flagInput } from '../../resource-kit/fields.ts';

/**
 * `auth`: login, refresh, logout, status and setPassword. They need cookies and the socket
 * address, which workers never see, so http/auth-routes.ts serves them on the web thread (every
 * method is `webThread`: there are no worker actions); this declaration makes the grammar (405s),
 * permissions and OpenAPI know them.
 */
/** login and refresh answer the same way. */
const tokenAnswer = z.object({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int().describe('Seconds the access token is valid.'),
  login: z.string(),
});

/** login, refresh, logout and status: public, on the collection, served by the web thread. */
const PUBLIC_ON_WEB_THREAD = {
  webThread: true,
  scope: 'collection',
  level: 'READ',
  public: true,
} satisfies Partial<CustomMethodDecl>;

export const authDeclaration = {
  name: 'auth',
  description: 'Console accounts: JWT login with a rotating refresh cookie, logout, and the admin password.',
  processor: 'AuthManagementProcessor',
  security: { permission: 'Auth', channels: ['localhost', 'bearer_token', 'public'] },
  fields: {},
  operations: [],
  customMethods: {
    login: {
      verbs: ['POST'],
      ...PUBLIC_ON_WEB_THREAD,
      description:
        'JSON or form body `login`, `password`, optional `rememberMe`. Answers `{accessToken, ' +
        'tokenType, expiresIn, login}` and sets the `refreshToken` cookie. 401 on bad credentials, ' +
        '429 after 10 failures in 300 s.',
      input: z.object({ login: z.string(), password: z.string(), rememberMe: flagInput().optional() }),
      output: tokenAnswer,
    },
    refresh: {
      verbs: ['POST'],
      ...PUBLIC_ON_WEB_THREAD,
      description:
        'Exchanges the `refreshToken` cookie for a new access token and rotates the cookie. Reusing a rotated token revokes its session.',
      input: NO_BODY,
      output: tokenAnswer,
    },
    logout: {
      verbs: ['POST'],
      ...PUBLIC_ON_WEB_THREAD,
      description:
        'Revokes the refresh token family, the web session and the login session of a presented ' +
        'Bearer JWT (so that token is refused at once), and clears the cookies.',
      input: NO_BODY,
      output: z.object({ loggedOut: z.literal(true), revoked: z.boolean() }),
    },
    status: {
      verbs: ['GET'],
      ...PUBLIC_ON_WEB_THREAD,
      description:
        'Whether an admin password is set, and whether this caller is on loopback: `{adminPasswordSet, viaLocalhost}`.',
      input: NO_QUERY,
      output: z.object({ adminPasswordSet: z.boolean(), viaLocalhost: z.boolean() }),
    },
    setPassword: {
      verbs: ['POST'],
      webThread: true,
      scope: 'collection',
      level: 'ADMIN',
      description:
        'Sets a password: `{password, currentPassword?, login?}`. From localhost no current ' +
        'password is needed; other callers must give it. Other sessions of the user are revoked.',
      input: z.object({ password: z.string(), currentPassword: z.string().optional(), login: z.string().optional() }),
      output: z.object({ login: z.string(), passwordSet: z.literal(true) }),
    },
  },
} satisfies ResourceDeclaration;
