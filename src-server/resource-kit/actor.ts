import type { ActionContext } from './types.ts';

/** Who did it, as the history shows it: the user, the API key, or the PBX host's own console. */
export function actorOf(ctx: ActionContext): string {
  const session = ctx.session;
  if (!session) return 'localhost';
  if (session.auth_type === 'api_key') return `API key #${session.token_id}`;
  return session.user_name ?? `session ${session.session_id ?? ''}`.trim();
}
