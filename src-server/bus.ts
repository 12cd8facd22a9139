import { EventEmitter } from 'node:events';

/** Events crossing features (and, as plain objects, from workers back to the web thread). */
export type BusEvent =
  | { type: 'resource-changed'; resource: string }
  /** A failed login, bad credential or Asterisk security event; feeds the intrusion-ban component. */
  | { type: 'security-failure'; category: 'http' | 'sip' | 'iax' | 'ami'; ip: string; reason: string }
  /** The operator lifted every ban of `ip` (firewall:unbanIp, in a worker): the web thread drops them from its cache. */
  | { type: 'bans-lifted'; ip: string }
  /** The operator banned an address or range (firewall:banIp, in a worker): the web thread reads it in. */
  | { type: 'bans-added'; ip: string };

type Handler<T extends BusEvent['type']> = (event: Extract<BusEvent, { type: T }>) => void;

/** In-process event bus of the web thread. */
export class ServerBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(50);
  }

  emit(event: BusEvent): void {
    this.emitter.emit(event.type, event);
  }

  on<T extends BusEvent['type']>(type: T, handler: Handler<T>): () => void {
    this.emitter.on(type, handler as (e: BusEvent) => void);
    return () => this.emitter.off(type, handler as (e: BusEvent) => void);
  }
}
