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
      /** The account tried (an Asterisk event's AccountID): failures from an address with registered phones count per account. */
      account?: string;
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
  | { type: 'access-rejected'; entry: AuditRejection }
  /** An account keeps failing from an address where other phones are registered (issue 3/6): flagged, not banned. */
  | { type: 'account-flagged'; flag: AccountFlag }
  /** A capped key left out entries of this PBX's own (intrusion or manual bans), or stopped doing so (issue 4/6). */
  | { type: 'key-capped-own'; keyId: number; keyName: string; leftOutOwn: number }
  /** A health check changed state, or stays failing (a reminder); notifications follow these (issue 5/6). */
  | { type: 'health-changed'; check: HealthCheckState }
  /** The operator asked for a test message on a channel (notification-channels:sendTest, in a worker). */
  | { type: 'notification-test'; channelId: number };

/** An account flagged behind a registered address: failures that would have banned the address are held. */
export interface AccountFlag {
  account: string;
  address: string;
  /** The accounts registered from that address when the flag was raised. */
  registeredAccounts: string[];
  state: 'flagged' | 'cleared';
  failures: number;
  /** ISO time of the change. */
  at: string;
}

/** Every health check the server runs, by what it watches. */
export type HealthCheckKind =
  | 'bouncer-silent'
  | 'feed-not-fetched'
  | 'no-consumer'
  | 'key-refused'
  | 'lapi-down'
  | 'lapi-queue'
  | 'ami-down'
  | 'cap-drops-own'
  | 'account-flagged'
  | 'attack-surge';

export type HealthSeverity = 'info' | 'warning' | 'critical';

/** One health check's state as the Health card, the terminal and the notification rules see it. */
export interface HealthCheckState {
  /** Stable per subject, e.g. `bouncer-silent:12`, `lapi-down`, `attack-surge`. */
  id: string;
  kind: HealthCheckKind;
  state: 'failing' | 'ok';
  severity: HealthSeverity;
  /** In words, naming the key or account, e.g. "fw1 has not polled for 42 min". */
  title: string;
  /** Where to act, e.g. "API keys › fw1". */
  action?: string;
  /** ISO time the check entered this state. */
  since: string;
  /** On recovery: how long it was failing, in ms. */
  failedForMs?: number;
  /** A reminder of a check that stays failing (not a change). */
  reminder?: boolean;
  /** More in words, e.g. an attack surge's top sources and categories. */
  detail?: string;
}

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
