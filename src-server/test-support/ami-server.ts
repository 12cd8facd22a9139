import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { AmiFrameReader, formatAction, type AmiMessage } from '../peers/ami-protocol.ts';

/** One AMI message's fields, in the order they are written. */
type AmiFields = Record<string, string | number | undefined>;

/** The contact of a registered endpoint, as `ContactStatusDetail` reports it. */
export interface TestContact {
  uri: string;
  userAgent?: string;
  viaAddress?: string;
  status?: 'Reachable' | 'Unreachable' | 'Unknown' | 'Created' | 'Removed';
  roundtripUsec?: string;
  regExpire?: string;
  callId?: string;
}

export interface TestEndpoint {
  /** `DeviceState` of PJSIPShowEndpoints: `Not in use`, `In use`, `Unavailable`, ... */
  deviceState: string;
  contact?: TestContact;
}

/** Extension 100 registered from a Yealink desk phone at 192.0.2.5 (a fresh object: tests change it). */
export const deskPhone100 = (contact: Partial<TestContact> = {}): TestEndpoint => ({
  deviceState: 'Not in use',
  contact: {
    uri: 'sip:100@192.0.2.5:5060',
    userAgent: 'Yealink T46U',
    viaAddress: '192.0.2.5:5060',
    roundtripUsec: '1234',
    ...contact,
  },
});

export interface TestRegistration {
  /** `Status` of PJSIPShowRegistrationsOutbound: `Registered`, `Unregistered`, `Rejected`, ... */
  status: string;
  serverUri?: string;
  clientUri?: string;
}

export interface AmiTestServerOptions {
  username?: string;
  secret?: string;
  /** First line sent on connect; change it to test the client's banner check. */
  banner?: string;
  port?: number;
}

/**
 * A small Asterisk manager (AMI) server for tests, speaking the real wire protocol over TCP:
 * the banner, `\r\n`-framed messages, Login, Ping, event lists for the PJSIP show actions and
 * unsolicited events. Tests change its state and can drop links or go down entirely.
 */
export class AmiTestServer {
  readonly endpoints = new Map<string, TestEndpoint>();
  readonly registrations = new Map<string, TestRegistration>();
  /** Every action received, in order (Login secrets included: this is a test double). */
  readonly actions: AmiMessage[] = [];
  /** When true, actions are read but never answered (a hung Asterisk). */
  stallActions = false;
  logins = 0;
  private server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly loggedIn = new Set<Socket>();
  private listeningPort = 0;

  private constructor(private readonly options: Required<Omit<AmiTestServerOptions, 'port'>>) {
    this.server = this.makeServer();
  }

  /** Starts the server on an ephemeral loopback port (or `options.port`). */
  static async start(options: AmiTestServerOptions = {}): Promise<AmiTestServer> {
    const server = new AmiTestServer({
      username: options.username ?? 'admin',
      secret: options.secret ?? 'amp111',
      banner: options.banner ?? 'Asterisk Call Manager/7.0.3',
    });
    await server.listen(options.port ?? 0);
    return server;
  }

  get port(): number {
    return this.listeningPort;
  }

  readonly host = '127.0.0.1';

  /** Connections that completed Login. */
  get sessions(): number {
    return this.loggedIn.size;
  }

  /** Sends an unsolicited event to every logged-in connection. */
  emitEvent(fields: Record<string, string>): void {
    const text = formatAction(fields);
    for (const socket of this.loggedIn) socket.write(text);
  }

  /** Writes raw bytes to every logged-in connection (malformed-input tests). */
  sendRaw(text: string | Buffer): void {
    for (const socket of this.loggedIn) socket.write(text);
  }

  /** Drops every open connection at once, as an Asterisk restart would. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** Stops listening and drops every link: Asterisk is down. */
  async goDown(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Listens again on the same port: Asterisk is back. */
  async comeBack(): Promise<void> {
    this.server = this.makeServer();
    await this.listen(this.listeningPort);
  }

  /** Resolves once `predicate` holds, checking on every received action and at a short interval. */
  async waitFor(predicate: () => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('AmiTestServer.waitFor timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    this.dropConnections();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async listen(port: number): Promise<void> {
    this.server.listen(port, this.host);
    await once(this.server, 'listening');
    this.listeningPort = (this.server.address() as AddressInfo).port;
  }

  private makeServer(): Server {
    return createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => {
        this.sockets.delete(socket);
        this.loggedIn.delete(socket);
      });
      socket.on('error', () => undefined);
      socket.write(`${this.options.banner}\r\n`);
      const reader = new AmiFrameReader({ expectBanner: false });
      socket.on('data', (chunk: Buffer) => {
        let frames;
        try {
          frames = reader.push(chunk);
        } catch {
          return socket.destroy();
        }
        for (const frame of frames) if (frame.kind === 'message') this.handle(socket, frame.message);
      });
    });
  }

  private handle(socket: Socket, action: AmiMessage): void {
    this.actions.push(action);
    if (this.stallActions) return;
    const id = action.ActionID;
    const reply = (fields: Record<string, string | undefined>): void => {
      socket.write(formatAction(fields));
    };
    const name = (action.Action ?? '').toLowerCase();
    if (name === 'login') {
      if (action.Username === this.options.username && action.Secret === this.options.secret) {
        this.loggedIn.add(socket);
        this.logins++;
        reply({ Response: 'Success', ActionID: id, Message: 'Authentication accepted' });
        reply({
          Event: 'FullyBooted',
          Privilege: 'system,all',
          Uptime: '100',
          LastReload: '100',
          Status: 'Fully Booted',
        });
      } else {
        reply({ Response: 'Error', ActionID: id, Message: 'Authentication failed' });
      }
      return;
    }
    if (!this.loggedIn.has(socket))
      return reply({ Response: 'Error', ActionID: id, Message: 'Authentication Required' });
    switch (name) {
      case 'ping':
        return reply({ Response: 'Success', ActionID: id, Ping: 'Pong', Timestamp: (Date.now() / 1000).toFixed(6) });
      case 'logoff':
        reply({ Response: 'Goodbye', ActionID: id, Message: 'Thanks for all the fish.' });
        socket.end();
        return;
      case 'pjsipshowendpoints':
        return this.listEndpoints(socket, id);
      case 'pjsipshowendpoint':
        return this.showEndpoint(socket, id, action.Endpoint ?? '');
      case 'pjsipshowregistrationsoutbound':
        return this.listRegistrations(socket, id);
      default:
        return reply({ Response: 'Error', ActionID: id, Message: 'Invalid/unknown command' });
    }
  }

  /** An event list as Asterisk sends one: the Success answer, the events, then the Complete event with its counts. */
  private writeEventList(
    socket: Socket,
    id: string | undefined,
    message: string,
    events: AmiFields[],
    complete: AmiFields & { Event: string },
  ): void {
    let out = formatAction({ Response: 'Success', ActionID: id, EventList: 'start', Message: message });
    for (const event of events) out += formatAction(event);
    const { Event, ...counts } = complete;
    out += formatAction({ Event, ActionID: id, EventList: 'Complete', ...counts });
    socket.write(out);
  }

  private listEndpoints(socket: Socket, id: string | undefined): void {
    const events = [...this.endpoints].map(([name, endpoint]) => ({
      Event: 'EndpointList',
      ActionID: id,
      ObjectType: 'endpoint',
      ObjectName: name,
      Transport: 'transport-udp',
      Aor: name,
      Auths: name,
      OutboundAuths: '',
      Contacts: endpoint.contact ? `${name}/${endpoint.contact.uri},` : '',
      DeviceState: endpoint.deviceState,
      ActiveChannels: '',
    }));
    this.writeEventList(socket, id, 'A listing of Endpoints follows, presented as EndpointList events', events, {
      Event: 'EndpointListComplete',
      ListItems: String(this.endpoints.size),
    });
  }

  private showEndpoint(socket: Socket, id: string | undefined, name: string): void {
    const endpoint = this.endpoints.get(name);
    if (!endpoint) {
      socket.write(formatAction({ Response: 'Error', ActionID: id, Message: `Unable to retrieve endpoint ${name}` }));
      return;
    }
    const events: AmiFields[] = [
      {
        Event: 'EndpointDetail',
        ActionID: id,
        ObjectType: 'endpoint',
        ObjectName: name,
        DeviceState: endpoint.deviceState,
        Context: 'all_peers',
      },
      {
        Event: 'AorDetail',
        ActionID: id,
        ObjectType: 'aor',
        ObjectName: name,
        MaxContacts: '5',
        EndpointName: name,
      },
    ];
    const contact = endpoint.contact;
    if (contact) {
      events.push({
        Event: 'ContactStatusDetail',
        ActionID: id,
        AOR: name,
        URI: contact.uri,
        UserAgent: contact.userAgent ?? '',
        RegExpire: contact.regExpire ?? '1767225900',
        ViaAddress: contact.viaAddress ?? '',
        CallID: contact.callId ?? `call-${name}`,
        Status: contact.status ?? 'Reachable',
        RoundtripUsec: contact.roundtripUsec ?? '0',
        EndpointName: name,
        ID: `${name};@${name}abc`,
        AuthenticateQualify: '0',
        OutboundProxy: '',
        Path: '',
        QualifyFrequency: '60',
        QualifyTimeout: '3.000000',
      });
    }
    this.writeEventList(socket, id, 'Following are Events for each object associated with the Endpoint', events, {
      Event: 'EndpointDetailComplete',
      ListItems: String(events.length),
    });
  }

  private listRegistrations(socket: Socket, id: string | undefined): void {
    let registered = 0;
    const events = [...this.registrations].map(([name, registration]) => {
      if (registration.status === 'Registered') registered++;
      return {
        Event: 'OutboundRegistrationDetail',
        ActionID: id,
        ObjectType: 'registration',
        ObjectName: name,
        ServerUri: registration.serverUri ?? 'sip:sip.example.net',
        ClientUri: registration.clientUri ?? 'sip:user@sip.example.net',
        Status: registration.status,
        NextReg: '0',
      };
    });
    this.writeEventList(socket, id, 'Following are Events for each Outbound registration', events, {
      Event: 'OutboundRegistrationDetailComplete',
      Registered: String(registered),
      NotRegistered: String(this.registrations.size - registered),
    });
  }
}
