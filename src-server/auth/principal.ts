import type { SessionContext } from '../wire/types.ts';

export type { SessionContext };
/** SPEC "Headers forwarded to workers": the context handed to actions for Bearer requests. */
export type Role = 'admin' | 'viewer';

/** Who is calling, as established by the auth chain. */
export type Principal =
  | { channel: 'public' }
  | { channel: 'localhost' }
  | {
      channel: 'bearer_token';
      kind: 'jwt';
      userName: string;
      role: Role;
      sessionId: string;
      session: SessionContext;
    }
  | {
      channel: 'bearer_token';
      kind: 'api_key';
      keyId: number;
      allowedPaths: Record<string, 'read' | 'write'>;
      fullPermissions: boolean;
      session: SessionContext;
    }
  | {
      channel: 'session';
      userName: string;
      role: Role;
      sessionId: string;
      session: SessionContext;
    };

/** The session context a worker may see: Bearer requests only (SPEC). */
export function sessionContextOf(principal: Principal): SessionContext | null {
  return principal.channel === 'bearer_token' ? principal.session : null;
}
