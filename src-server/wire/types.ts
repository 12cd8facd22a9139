/**
 * Plain types that cross a boundary: between the web thread and the workers (queue/messages.ts),
 * and between the domain and the HTTP layer. Leaf file: imports nothing of the server (only src-shared/).
 */
import type { AccessLevel } from '../../src-shared/access.ts';

export type HttpVerb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Level = AccessLevel;
/** How a caller may reach a resource: the localhost bypass, a Bearer credential (or session), or anonymously. */
export type Channel = 'localhost' | 'bearer_token' | 'public';
export type CrudOperation = 'getList' | 'getRecord' | 'create' | 'update' | 'patch' | 'delete';
/** A CRUD operation name, or the name of a declared custom method. */
export type OperationName = CrudOperation | (string & {});

/** The session context an action sees (SPEC): who called, through which credential, from where. */
export interface SessionContext {
  auth_type: 'jwt' | 'api_key' | 'session';
  /** Id of the API key (or refresh family / session) that validated the request. */
  token_id: string | number | null;
  origin: string;
  remote_addr: string;
  user_name?: string;
  role?: string;
  session_id?: string;
}

/** Events crossing the web thread's parts (and, as plain objects, from workers back to the web thread). */
export type BusEvent =
  | { type: 'resource-changed'; resource: string }
  /** A failed login, bad credential or Asterisk security event; feeds the intrusion-ban component. */
  | {
      type: 'security-failure';
      category: 'http' | 'sip' | 'iax' | 'ami';
      ip: string;
      reason: string;
      /** `api-key`: a wrong or malformed API key (a misconfigured bouncer), which a valid key from that address may forgive. */
      credential?: 'api-key';
    }
  /** The operator lifted every ban of `ip` (firewall:unbanIp, in a worker): the web thread drops them from its cache. */
  | { type: 'bans-lifted'; ip: string }
  /** Many bans were lifted at once (a whitelist covering thousands): the web thread re-reads every ban once instead. */
  | { type: 'bans-reloaded' }
  /** The operator banned an address or range (firewall:banIp, in a worker): the web thread reads it in. */
  | { type: 'bans-added'; ip: string }
  /** A ban list was imported (firewall:importBans, in a worker): the web thread reads every ban again, once. */
  | { type: 'bans-imported'; importId: number; fromId: number; toId: number }
  /** A rejected API key use or a failed login, for the audit log (audit/recorder.ts). */
  | { type: 'access-rejected'; entry: AuditRejection };

/** Who made a request, as the audit log records it: the channel, the user or key, the source address. */
export interface AuditActor {
  channel: 'localhost' | 'jwt' | 'session' | 'api_key' | 'public';
  /** User name (JWT, session), `localhost`, or null for an API key (see keyId). */
  name: string | null;
  keyId: number | null;
  address: string;
}

/** A refused API key use (401/403) or a failed login, as the web thread reports it to the audit log. */
export interface AuditRejection {
  kind: 'rejected-key' | 'failed-login';
  status: number;
  reason: string;
  address: string;
  method: string;
  path: string;
  keyId?: number;
  /** The login name tried (failed logins). */
  login?: string;
}

export type ModuleStyle = 'v1' | 'v2' | 'v3';

/** A loaded extension module as the workers need it: they import the same entry file. */
export interface ModuleEntry {
  name: string;
  slug: string;
  style: ModuleStyle;
  /** Absolute path of the ES module entry. */
  entryFile: string;
}
