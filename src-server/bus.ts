import { EventEmitter } from 'node:events';

import type { BusEvent } from './wire/types.ts';

export type { BusEvent };

type Handler<T extends BusEvent['type']> = (event: Extract<BusEvent, { type: T }>) => void;

/** What becomes of an error thrown by a handler. */
export type BusErrorHandler = (error: unknown, type: BusEvent['type']) => void;

/**
 * In-process event bus of the web thread. Each handler runs on its own: one that throws (a
 * database write refused with SQLITE_BUSY, say) is reported to `onError` and neither stops the
 * other handlers nor reaches the emitter, which is often a worker's message callback where a
 * throw would end the process.
 */
export class ServerBus {
  private readonly emitter = new EventEmitter();

  constructor(
    private readonly onError: BusErrorHandler = (error, type) =>
      process.emitWarning(`bus handler for ${type} failed: ${String(error)}`),
  ) {
    this.emitter.setMaxListeners(50);
  }

  emit(event: BusEvent): void {
    this.emitter.emit(event.type, event);
  }

  on<T extends BusEvent['type']>(type: T, handler: Handler<T>): () => void {
    const guarded = (event: BusEvent) => {
      try {
        handler(event as Extract<BusEvent, { type: T }>);
      } catch (error) {
        this.onError(error, type);
      }
    };
    this.emitter.on(type, guarded);
    return () => this.emitter.off(type, guarded);
  }
}
