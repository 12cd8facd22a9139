import type { Messages } from '../wire/envelope.ts';
import type { Db } from '../storage/database.ts';
import { readAmiSettings } from './ami-settings.ts';
import {
  readDetail,
  readEndpointStates,
  readLink,
  readRegistrations,
  type EndpointRow,
  type RegistrationRow,
} from './peer-state-store.ts';

/** Cached state older than this, with the link down, is no longer served: states fall back to UNKNOWN/OFF. */
export const STALE_STATE_LIMIT_MS = 5 * 60_000;

/** SPEC "Peer status records": the only state values. */
export type PeerState = 'OK' | 'UNKNOWN';
export type RegistryState = 'OK' | 'OFF';

/** The single-peer detail fields, exactly as the SPEC lists them (all strings). */
export const DETAIL_FIELDS = [
  'Event',
  'ActionID',
  'AOR',
  'URI',
  'UserAgent',
  'RegExpire',
  'ViaAddress',
  'CallID',
  'Status',
  'RoundtripUsec',
  'EndpointName',
  'ID',
  'AuthenticateQualify',
  'OutboundProxy',
  'Path',
  'QualifyFrequency',
  'QualifyTimeout',
] as const;

// DeviceState values of a registered, reachable endpoint (idle, in a call, ringing...).
const REACHABLE_DEVICE_STATES = new Set([
  'not in use',
  'in use',
  'busy',
  'ringing',
  'ringinuse',
  'ring+inuse',
  'on hold',
  'reachable',
]);

/** OK when the endpoint is reachable, in use or not in use; UNKNOWN otherwise (Unavailable, Invalid, absent). */
export function peerStateOf(row: EndpointRow | undefined): PeerState {
  return row && REACHABLE_DEVICE_STATES.has(row.deviceState.trim().toLowerCase()) ? 'OK' : 'UNKNOWN';
}

/** OK when registered; OFF when disabled, unregistered, rejected or unknown to Asterisk. */
export function registryStateOf(registration: RegistrationRow | undefined, providerDisabled: boolean): RegistryState {
  return !providerDisabled && registration?.status.trim().toLowerCase() === 'registered' ? 'OK' : 'OFF';
}

/** How much the cached state can be trusted now. */
export interface StateFreshness {
  enabled: boolean;
  connected: boolean;
  lastError: string | null;
  /** Whole seconds since the last complete refresh; null when no state was ever read. */
  ageSeconds: number | null;
  /** Whether the cached states may be served (else every peer is UNKNOWN and every provider OFF). */
  usable: boolean;
}

/** Reads the link row and settings and decides whether cached state may be served. */
export function freshnessOf(db: Db, now: number): StateFreshness {
  const { enabled } = readAmiSettings(db);
  const link = readLink(db);
  const ageMs = link.stateUpdatedAt === null ? null : Math.max(0, now - link.stateUpdatedAt);
  const usable = enabled && ageMs !== null && (link.connected || ageMs <= STALE_STATE_LIMIT_MS);
  return {
    enabled,
    connected: enabled && link.connected,
    lastError: enabled ? link.lastError : null,
    ageSeconds: enabled && ageMs !== null ? Math.floor(ageMs / 1000) : null,
    usable,
  };
}

/** Messages that tell the caller where the states come from when they are not live. */
export function freshnessMessages(f: StateFreshness): Messages | undefined {
  if (!f.enabled)
    return {
      info: ['The Asterisk manager interface (AMI) is disabled: every extension is UNKNOWN and every provider OFF.'],
    };
  if (f.connected && f.usable) return undefined;
  if (f.connected) return { info: ['Connected to Asterisk; the first state refresh has not finished yet.'] };
  const reason = f.lastError ? ` (${f.lastError})` : '';
  if (f.usable)
    return { warning: [`Asterisk is not connected${reason}; the states shown are cached, ${f.ageSeconds} s old.`] };
  return { warning: [`Asterisk is not connected${reason}: every extension is UNKNOWN and every provider OFF.`] };
}

export interface PeerStatusItem {
  id: string;
  state: PeerState;
}

/** Every extension with its state, in number order. */
export function peerStatuses(db: Db, freshness: StateFreshness): PeerStatusItem[] {
  const numbers = db.prepare('SELECT number FROM extensions ORDER BY number').pluck().all() as string[];
  const states = freshness.usable ? readEndpointStates(db) : new Map<string, EndpointRow>();
  return numbers.map((id) => ({ id, state: peerStateOf(states.get(id)) }));
}

export interface RegistryItem {
  state: RegistryState;
  id: string;
  username: string;
  host: string;
}

interface ProviderRow {
  id: string;
  description: string;
  username: string;
  host: string;
  disabled: number;
}

const hostOnly = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[([^\]]+)\](:\d+)?$/, '$1')
    .replace(/^([^:]+):\d+$/, '$1');

function uriParts(uri: string): { user: string; host: string } {
  const rest =
    uri
      .trim()
      .replace(/^sips?:/i, '')
      .split(/[;>?]/)[0] ?? '';
  const at = rest.lastIndexOf('@');
  return { user: at >= 0 ? rest.slice(0, at).toLowerCase() : '', host: hostOnly(at >= 0 ? rest.slice(at + 1) : rest) };
}

/** The registration of a provider: named after its id (optionally `-REG`), else matched on user and server host. */
export function registrationFor(
  provider: Pick<ProviderRow, 'id' | 'username' | 'host'>,
  registrations: RegistrationRow[],
): RegistrationRow | undefined {
  const id = provider.id.toLowerCase();
  const byName = registrations.find((r) => {
    const name = r.registration.toLowerCase();
    return name === id || name === `${id}-reg`;
  });
  if (byName || !provider.username) return byName;
  const host = hostOnly(provider.host);
  const user = provider.username.toLowerCase();
  return registrations.find((r) => uriParts(r.serverUri).host === host && uriParts(r.clientUri).user === user);
}

/** Every provider with its registration state, in id order. */
export function registryStatuses(db: Db, freshness: StateFreshness): Array<RegistryItem & { description: string }> {
  const providers = db
    .prepare('SELECT id, description, username, host, disabled FROM providers ORDER BY id')
    .all() as ProviderRow[];
  const registrations = freshness.usable ? readRegistrations(db) : [];
  return providers.map((p) => ({
    state: registryStateOf(registrationFor(p, registrations), p.disabled === 1),
    id: p.id,
    username: p.username,
    host: p.host,
    description: p.description,
  }));
}

export type PeerDetail = Record<(typeof DETAIL_FIELDS)[number] | 'state', string>;

/**
 * The detail object of one extension: the fields of its ContactStatusDetail, all strings
 * ('' when Asterisk gave none), plus `state`. Undefined when the extension does not exist.
 */
export function peerDetail(db: Db, id: string, freshness: StateFreshness): PeerDetail | undefined {
  const exists = db.prepare('SELECT 1 FROM extensions WHERE number = ?').get(id);
  if (!exists) return undefined;
  const stored = freshness.usable ? readDetail(db, id) : undefined;
  const contact = stored?.detail ?? {};
  const detail = Object.fromEntries(DETAIL_FIELDS.map((name) => [name, String(contact[name] ?? '')])) as PeerDetail;
  if (!detail.EndpointName) detail.EndpointName = id;
  detail.state = freshness.usable ? peerStateOf(readEndpointStates(db).get(id)) : 'UNKNOWN';
  return detail;
}
