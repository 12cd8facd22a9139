/**
 * Fair sharing of the event-stream slots (issue 19): one principal or one address can no longer
 * hold them all. Each remote principal and each remote address has a cap, and the last RESERVED
 * slots are kept for this machine (the desktop console) and for admins, so they always get in.
 */

export interface StreamSlotLimits {
  /** All streams at once: each holds a socket and a timer. */
  total: number;
  /** Slots only a privileged caller (loopback or admin) may take. */
  reserved: number;
  /** Streams one principal (a user, an API key) may hold, from any address. */
  perPrincipal: number;
  /** Streams one remote address may hold, whoever calls. */
  perAddress: number;
}

export const DEFAULT_STREAM_LIMITS: StreamSlotLimits = { total: 1000, reserved: 100, perPrincipal: 20, perAddress: 50 };

/** Who asks for a slot. `loopback`: the socket is this machine's (127.0.0.1, ::1). */
export interface StreamClaimant {
  principal: string;
  address: string;
  loopback: boolean;
  admin: boolean;
}

export type SlotRefusal = { ok: false; reason: string };
export type SlotGrant = { ok: true; release: () => void };

export class StreamSlots {
  private open = 0;
  private readonly byPrincipal = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly limits: StreamSlotLimits = DEFAULT_STREAM_LIMITS) {}

  get size(): number {
    return this.open;
  }

  /** A slot, or why not. Loopback callers are this machine's operator: only the total bounds them. */
  claim(who: StreamClaimant): SlotGrant | SlotRefusal {
    const { total, reserved, perPrincipal, perAddress } = this.limits;
    if (this.open >= total) return { ok: false, reason: 'Too many open event streams on this server' };
    if (!who.loopback) {
      if ((this.byPrincipal.get(who.principal) ?? 0) >= perPrincipal)
        return {
          ok: false,
          reason: `This caller already holds ${perPrincipal} event streams (the most one caller may hold)`,
        };
      if ((this.byAddress.get(who.address) ?? 0) >= perAddress)
        return {
          ok: false,
          reason: `Address ${who.address} already holds ${perAddress} event streams (the most one address may hold)`,
        };
      if (!who.admin && this.open >= total - reserved)
        return { ok: false, reason: 'The remaining event streams are reserved for this machine and administrators' };
    }
    this.open++;
    const principalKey = who.loopback ? undefined : who.principal;
    const addressKey = who.loopback ? undefined : who.address;
    if (principalKey !== undefined) bump(this.byPrincipal, principalKey, 1);
    if (addressKey !== undefined) bump(this.byAddress, addressKey, 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.open--;
        if (principalKey !== undefined) bump(this.byPrincipal, principalKey, -1);
        if (addressKey !== undefined) bump(this.byAddress, addressKey, -1);
      },
    };
  }
}

function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
