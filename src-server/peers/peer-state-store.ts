import type { Db } from '../storage/database.ts';
import type { AmiMessage } from './ami-protocol.ts';

/** One row of PJSIPShowEndpoints. */
export interface EndpointRow {
  endpoint: string;
  deviceState: string;
  contacts: string;
}

/** One row of PJSIPShowRegistrationsOutbound. */
export interface RegistrationRow {
  registration: string;
  status: string;
  serverUri: string;
  clientUri: string;
}

export interface LinkRow {
  connected: boolean;
  lastError: string | null;
  /** Epoch ms of the last complete refresh; null when none since the state was cleared. */
  stateUpdatedAt: number | null;
}

/** Replaces the endpoint and registration snapshots in one transaction and stamps the refresh time. */
export function writeSnapshot(db: Db, endpoints: EndpointRow[], registrations: RegistrationRow[], now: number): void {
  db.transaction(() => {
    db.prepare('DELETE FROM peer_state').run();
    const peer = db.prepare(
      'INSERT OR REPLACE INTO peer_state (endpoint, device_state, contacts, updated_at) VALUES (?, ?, ?, ?)',
    );
    for (const e of endpoints) peer.run(e.endpoint, e.deviceState, e.contacts, now);
    db.prepare('DELETE FROM registry_state').run();
    const reg = db.prepare(
      'INSERT OR REPLACE INTO registry_state (registration, status, server_uri, client_uri, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const r of registrations) reg.run(r.registration, r.status, r.serverUri, r.clientUri, now);
    db.prepare('DELETE FROM peer_detail WHERE endpoint NOT IN (SELECT endpoint FROM peer_state)').run();
    db.prepare('UPDATE ami_link SET state_updated_at = ? WHERE id = 1').run(now);
  })();
}

/** Stores the contact detail of one endpoint (null: it has no contact). */
export function writeDetail(db: Db, endpoint: string, detail: AmiMessage | null, now: number): void {
  db.prepare('INSERT OR REPLACE INTO peer_detail (endpoint, detail, updated_at) VALUES (?, ?, ?)').run(
    endpoint,
    detail ? JSON.stringify(detail) : null,
    now,
  );
}

/** Records the link state the status endpoint reports. */
export function writeLink(db: Db, connected: boolean, lastError: string | null): void {
  db.prepare('UPDATE ami_link SET connected = ?, last_error = ? WHERE id = 1').run(connected ? 1 : 0, lastError);
}

/** Forgets every cached state: AMI disabled or pointed elsewhere. Nothing from the old target may be served. */
export function clearState(db: Db): void {
  db.transaction(() => {
    db.prepare('DELETE FROM peer_state').run();
    db.prepare('DELETE FROM registry_state').run();
    db.prepare('DELETE FROM peer_detail').run();
    db.prepare('UPDATE ami_link SET state_updated_at = NULL WHERE id = 1').run();
  })();
}

export function readLink(db: Db): LinkRow {
  const row = db.prepare('SELECT connected, last_error, state_updated_at FROM ami_link WHERE id = 1').get() as
    | { connected: number; last_error: string | null; state_updated_at: number | null }
    | undefined;
  return {
    connected: row?.connected === 1,
    lastError: row?.last_error ?? null,
    stateUpdatedAt: row?.state_updated_at ?? null,
  };
}

export function readEndpointStates(db: Db): Map<string, EndpointRow> {
  const rows = db
    .prepare('SELECT endpoint, device_state AS deviceState, contacts FROM peer_state')
    .all() as EndpointRow[];
  return new Map(rows.map((r) => [r.endpoint, r]));
}

export function readRegistrations(db: Db): RegistrationRow[] {
  return db
    .prepare(
      'SELECT registration, status, server_uri AS serverUri, client_uri AS clientUri FROM registry_state ORDER BY registration',
    )
    .all() as RegistrationRow[];
}

export function readDetail(db: Db, endpoint: string): { detail: AmiMessage | null; updatedAt: number } | undefined {
  const row = db.prepare('SELECT detail, updated_at FROM peer_detail WHERE endpoint = ?').get(endpoint) as
    | { detail: string | null; updated_at: number }
    | undefined;
  if (!row) return undefined;
  return { detail: row.detail ? (JSON.parse(row.detail) as AmiMessage) : null, updatedAt: row.updated_at };
}
