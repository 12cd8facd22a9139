import { useSyncExternalStore } from 'react';

/** Whether the server answered the console's last request, and when it last answered at all. */
export interface ConnectionState {
  reachable: boolean;
  /** Epoch ms of the last answer of any kind (an error status is still contact); null before the first. */
  lastContact: number | null;
  /** Epoch ms of the first failed request since the last answer. */
  lostAt: number | null;
}

let state: ConnectionState = { reachable: true, lastContact: null, lostAt: null };
const listeners = new Set<() => void>();
const reconnectListeners = new Set<() => void>();

function set(next: ConnectionState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** The API client calls this on every answer, whatever its status. */
export function markContact(now = Date.now()): void {
  const wasLost = !state.reachable;
  // Only a change of reachability re-renders: the time of contact is read when the banner shows.
  if (wasLost) set({ reachable: true, lastContact: now, lostAt: null });
  else state = { ...state, lastContact: now };
  if (wasLost) for (const listener of reconnectListeners) listener();
}

/** The API client calls this when a request got no answer (network error, server down). */
export function markUnreachable(now = Date.now()): void {
  if (state.reachable) set({ ...state, reachable: false, lostAt: now });
}

export const getConnectionState = () => state;

/** Runs `listener` each time the server answers again after being unreachable (to refresh stale data). */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The connection state, for the app-wide banner and the header badge. */
export const useConnectionState = () => useSyncExternalStore(subscribe, getConnectionState);
