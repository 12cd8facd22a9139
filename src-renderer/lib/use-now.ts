import { useEffect, useState, useSyncExternalStore } from 'react';

/** The current time in ms, re-rendered every `intervalMs`: drives live countdowns and ages. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** One clock for many subscribers: a single timer, and every subscriber re-rendered in the same pass. */
const ticking = { now: Date.now(), listeners: new Set<() => void>(), timer: undefined as number | undefined };

function subscribeToTicks(listener: () => void): () => void {
  ticking.listeners.add(listener);
  if (ticking.timer === undefined) {
    // The clock was stopped: its time is stale (React reads it again after subscribing and re-renders).
    ticking.now = Date.now();
    ticking.timer = window.setInterval(() => {
      ticking.now = Date.now();
      for (const notify of ticking.listeners) notify();
    }, 1000);
  }
  return () => {
    ticking.listeners.delete(listener);
    if (ticking.listeners.size === 0) {
      window.clearInterval(ticking.timer);
      ticking.timer = undefined;
    }
  };
}

/**
 * The current time in ms, every second, from one shared timer: for a countdown cell repeated in many
 * rows, so only the cells re-render each second, never the whole table around them.
 */
export function useSharedNow(): number {
  return useSyncExternalStore(subscribeToTicks, readTicks);
}

/** The clock's time; while it is stopped (no subscriber yet), brought up to date at most once a second, so a first render is current. */
function readTicks(): number {
  if (ticking.timer === undefined && Date.now() - ticking.now >= 1000) ticking.now = Date.now();
  return ticking.now;
}
