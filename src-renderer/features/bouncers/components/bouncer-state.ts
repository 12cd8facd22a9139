import { toMillis } from '../../../lib/format.ts';
import type { BouncerRefusal, BouncerStatus } from '../api/get-bouncer-status.ts';

/** What the card shows for a bouncer's state: its badge, the badge's colour, and a line saying why. */
export interface BouncerStateView {
  label: string;
  color: 'teal' | 'red' | 'orange' | 'gray';
  /** Filled for states that need action, so they stand out from the light green of a healthy bouncer. */
  variant: 'filled' | 'light';
}

/** "14:05": the time of day, 24-hour, local. */
export const timeOfDay = (value: string | null) => {
  const ms = toMillis(value);
  return ms === null ? '—' : new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
};

/** A refusal in the words of the trade: "key expired", "wrong source address 198.51.100.7". */
export function refusalInWords(refusal: Pick<BouncerRefusal, 'code' | 'ip' | 'reason'>): string {
  switch (refusal.code) {
    case 'expired':
      return 'key expired';
    case 'disabled':
      return 'key disabled';
    case 'wrong-source':
      return `wrong source address ${refusal.ip}`;
    case 'not-allowed':
      return 'key not allowed on the export';
    default:
      return refusal.reason || 'refused';
  }
}

/**
 * The state comes from the server (the key's last attempt), never from the age of the last good
 * poll: a key whose polls are refused is never shown green.
 */
export function bouncerStateView(bouncer: Pick<BouncerStatus, 'state' | 'lastPollAt'>): BouncerStateView {
  switch (bouncer.state) {
    case 'served':
      return { label: 'Served', color: 'teal', variant: 'light' };
    case 'refused':
      return { label: 'Refused', color: 'red', variant: 'filled' };
    case 'silent':
      return { label: `Silent since ${timeOfDay(bouncer.lastPollAt)}`, color: 'orange', variant: 'filled' };
    default:
      return { label: 'Never polled', color: 'gray', variant: 'light' };
  }
}
