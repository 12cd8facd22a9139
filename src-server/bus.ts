import { EventEmitter } from 'node:events';

import type { BusEvent } from './wire/types.ts';

export type { BusEvent };

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
