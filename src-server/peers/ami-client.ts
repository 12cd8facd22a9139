import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import { AmiFrameReader, formatAction, isAmiBanner, type AmiFrame, type AmiMessage } from './ami-protocol.ts';
import { SlicedQueue } from './sliced-queue.ts';

/** Where and as whom to log in. */
export interface AmiConnectionSettings {
  host: string;
  port: number;
  username: string;
  secret: string;
}

export interface AmiClientOptions extends AmiConnectionSettings {
  /** Keep-alive `Ping` interval; a Ping unanswered within actionTimeoutMs drops the link. */
  pingIntervalMs?: number;
  actionTimeoutMs?: number;
  /** Limit for TCP connect, banner and Login together. */
  connectTimeoutMs?: number;
  /** Reconnect delay doubles from initialMs up to maxMs; a successful login resets it. */
  reconnect?: { initialMs?: number; maxMs?: number };
}

/** The answer to an action that produces an event list (`EventList: start` ... `Complete`). */
export interface AmiListResult {
  response: AmiMessage;
  events: AmiMessage[];
}

/** An action refused by Asterisk (`Response: Error`), or not sent because the link is down. */
export class AmiActionError extends Error {
  constructor(
    message: string,
    readonly response?: AmiMessage,
  ) {
    super(message);
    this.name = 'AmiActionError';
  }
}

interface PendingAction {
  resolve(value: AmiListResult): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  list: boolean;
  response?: AmiMessage;
  events: AmiMessage[];
}

interface AmiClientEvents {
  connected: [];
  disconnected: [reason: string];
  /** A connect or login attempt failed (lastError says why); a retry is scheduled. */
  attemptFailed: [reason: string];
  /** Unsolicited events: security events, contact and registry changes... */
  event: [event: AmiMessage];
  /** A block that was not an AMI message, or one over 1 MiB (skipped): what it began with. */
  malformed: [text: string];
}

const DEFAULTS = {
  pingIntervalMs: 20_000,
  actionTimeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  initialMs: 1_000,
  maxMs: 30_000,
};

const isSuccess = (m: AmiMessage) => (m.Response ?? '').toLowerCase() === 'success';
const isListEnd = (m: AmiMessage) => (m.EventList ?? '').toLowerCase() === 'complete';

/**
 * An Asterisk manager interface client over TCP. It checks the banner, logs in, correlates
 * ActionIDs, collects event lists, pings to keep the link alive and reconnects with capped
 * backoff until stopped. Actions fail at once while the link is down: nothing waits on Asterisk.
 * Malformed input is counted and skipped, never thrown.
 */
export class AmiClient extends EventEmitter<AmiClientEvents> {
  connected = false;
  lastError: string | null = null;
  /** Blocks received that were not AMI messages (for diagnostics and tests). */
  malformedMessages = 0;
  private readonly options: Required<Omit<AmiClientOptions, 'reconnect'>> & { initialMs: number; maxMs: number };
  private socket: Socket | undefined;
  private readonly pending = new Map<string, PendingAction>();
  private nextActionId = 1;
  private failedAttempts = 0;
  private stopped = true;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private connectTimer: NodeJS.Timeout | undefined;

  constructor(options: AmiClientOptions) {
    super();
    const { reconnect, ...rest } = options;
    this.options = {
      ...DEFAULTS,
      ...rest,
      initialMs: reconnect?.initialMs ?? DEFAULTS.initialMs,
      maxMs: reconnect?.maxMs ?? DEFAULTS.maxMs,
    };
  }

  /** Starts connecting; the client keeps reconnecting until stop(). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  /** Logs off when connected, closes the link and cancels every timer. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const socket = this.socket;
    if (!socket) return;
    if (this.connected) {
      socket.write(formatAction({ Action: 'Logoff', ActionID: this.newActionId() }));
      socket.end();
      const timer = setTimeout(() => socket.destroy(), 500);
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
      clearTimeout(timer);
    } else {
      socket.destroy();
      if (!socket.closed) await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    }
  }

  /** Sends an action and resolves with its response (`Response: Error` included). Rejects at once when not connected. */
  async action(fields: Record<string, string | number | undefined>): Promise<AmiMessage> {
    return (await this.send(fields, false)).response;
  }

  /** Sends an action that answers with an event list and resolves once the list is complete. */
  actionList(fields: Record<string, string | number | undefined>): Promise<AmiListResult> {
    return this.send(fields, true);
  }

  private send(
    fields: Record<string, string | number | undefined>,
    list: boolean,
    beforeLogin = false,
  ): Promise<AmiListResult> {
    const socket = this.socket;
    if (!socket || (!this.connected && !beforeLogin)) {
      return Promise.reject(
        new AmiActionError(`Asterisk is not connected${this.lastError ? `: ${this.lastError}` : ''}.`),
      );
    }
    const actionId = this.newActionId();
    return new Promise<AmiListResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(actionId);
        reject(new AmiActionError(`No answer to ${String(fields.Action)} within ${this.options.actionTimeoutMs} ms.`));
      }, this.options.actionTimeoutMs);
      this.pending.set(actionId, { resolve, reject, timer, list, events: [] });
      socket.write(formatAction({ ...fields, ActionID: actionId }));
    });
  }

  private newActionId(): string {
    return `pbx-console-${this.nextActionId++}`;
  }

  private open(): void {
    const { host, port } = this.options;
    const socket = connect({ host, port });
    this.socket = socket;
    socket.setNoDelay(true);
    const reader = new AmiFrameReader();
    this.connectTimer = setTimeout(
      () => this.fail(socket, `No AMI login within ${this.options.connectTimeoutMs} ms.`),
      this.options.connectTimeoutMs,
    );

    // Frames are handled in slices of the event loop; the socket waits while a slice is pending.
    const frames = new SlicedQueue<AmiFrame>(
      (frame) => this.onFrame(socket, frame),
      (paused) => (paused ? socket.pause() : socket.resume()),
    );
    socket.on('data', (chunk: Buffer) => {
      try {
        frames.push(reader.push(chunk));
      } catch (error) {
        return this.fail(socket, (error as Error).message);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.lastError = error.code === 'ECONNREFUSED' ? `Connection refused by ${host}:${port}.` : error.message;
    });
    socket.on('close', () => {
      frames.stop();
      this.onClose(socket);
    });
  }

  private onFrame(socket: Socket, frame: AmiFrame): void {
    if (socket !== this.socket) return; // the link failed meanwhile
    if (frame.kind === 'banner') return this.onBanner(socket, frame.text);
    if (frame.kind === 'message') return this.onMessage(frame.message);
    this.malformedMessages++;
    try {
      this.emit('malformed', frame.text);
    } catch {
      // a listener's bug must not break the link
    }
  }

  private onBanner(socket: Socket, banner: string): void {
    if (!isAmiBanner(banner))
      return this.fail(socket, `Not an Asterisk manager interface (banner "${banner.slice(0, 80)}").`);
    const { username, secret } = this.options;
    this.send({ Action: 'Login', Username: username, Secret: secret, Events: 'on' }, false, true).then(
      ({ response }) => {
        if (socket !== this.socket) return;
        if (!isSuccess(response))
          return this.fail(socket, `AMI login refused: ${response.Message ?? 'no reason given'}.`);
        clearTimeout(this.connectTimer);
        this.connected = true;
        this.lastError = null;
        this.failedAttempts = 0;
        this.schedulePing(socket);
        this.emit('connected');
      },
      (error: Error) => this.fail(socket, error.message),
    );
  }

  private onMessage(message: AmiMessage): void {
    const pending = message.ActionID !== undefined ? this.pending.get(message.ActionID) : undefined;
    if (pending && 'Response' in message && !pending.response) {
      if (!pending.list || !isSuccess(message)) return this.settle(message.ActionID!, pending, message);
      if ((message.EventList ?? '').toLowerCase() !== 'start') return this.settle(message.ActionID!, pending, message);
      pending.response = message;
      return;
    }
    if (pending && pending.response && 'Event' in message) {
      if (isListEnd(message)) return this.settle(message.ActionID!, pending, pending.response);
      pending.events.push(message);
      return;
    }
    if ('Event' in message) {
      try {
        this.emit('event', message);
      } catch {
        // a listener's bug must not break the link
      }
    }
  }

  private settle(actionId: string, pending: PendingAction, response: AmiMessage): void {
    clearTimeout(pending.timer);
    this.pending.delete(actionId);
    if (pending.list && !isSuccess(response)) {
      pending.reject(new AmiActionError(response.Message ?? 'Asterisk refused the action.', response));
    } else {
      pending.resolve({ response, events: pending.events });
    }
  }

  private schedulePing(socket: Socket): void {
    this.pingTimer = setTimeout(() => {
      this.action({ Action: 'Ping' }).then(
        () => {
          if (socket === this.socket && this.connected) this.schedulePing(socket);
        },
        () => this.fail(socket, 'Asterisk did not answer the keep-alive Ping.'),
      );
    }, this.options.pingIntervalMs);
  }

  /** Records why the link is unusable and drops it; onClose schedules the reconnect. */
  private fail(socket: Socket, reason: string): void {
    if (socket !== this.socket) return;
    this.lastError = reason;
    socket.destroy();
  }

  private onClose(socket: Socket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    clearTimeout(this.connectTimer);
    clearTimeout(this.pingTimer);
    const wasConnected = this.connected;
    this.connected = false;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new AmiActionError('The AMI connection closed.'));
      this.pending.delete(id);
    }
    if (this.stopped) return;
    if (wasConnected && !this.lastError) this.lastError = 'Asterisk closed the connection.';
    if (!wasConnected && !this.lastError) this.lastError = 'The connection closed before login.';
    if (wasConnected) this.emit('disconnected', this.lastError ?? 'closed');
    else this.emit('attemptFailed', this.lastError ?? 'closed');
    const delay = Math.min(this.options.maxMs, this.options.initialMs * 2 ** this.failedAttempts);
    this.failedAttempts = Math.min(this.failedAttempts + 1, 30);
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }

  /** Delay before the next reconnect attempt (exposed for tests of the backoff cap). */
  get nextReconnectDelayMs(): number {
    return Math.min(this.options.maxMs, this.options.initialMs * 2 ** this.failedAttempts);
  }
}
