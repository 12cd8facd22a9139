import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { selfSignedCertificate } from '../tls/tls-certificate.ts';
import { closeNow, listenOnLoopback } from './loopback-server.ts';
import { makeTempDir, removeTempDir } from './temp-db.ts';
import { waitUntil } from './wait.ts';

/** One request an HTTP receiver got. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** How an HTTP receiver answers, per request. `hold`: never answer (until the test lets go). */
export type Answer = { status: number; body?: string; bytes?: number } | 'hold';

export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  answer: (request: ReceivedRequest) => Answer;
  /** Ends every held request by cutting its connection. */
  release(): void;
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A webhook or ntfy receiver on a loopback port: records each request, answers as `answer` says. */
export async function startHttpReceiver(
  answer: HttpReceiver['answer'] = () => ({ status: 200 }),
): Promise<HttpReceiver> {
  const held: ServerResponse[] = [];
  const receiver: HttpReceiver = {
    url: '',
    requests: [],
    answer,
    release: () => held.splice(0).forEach((response) => response.socket?.destroy()),
    waitFor: (count) => waitUntil(`${count} request(s)`, () => receiver.requests.length >= count).then(() => undefined),
    close: () => closeNow(server),
  };
  const server: Server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      receiver.requests.push(received);
      const how = receiver.answer(received);
      if (how === 'hold') return void held.push(response);
      if (how.bytes) {
        // A huge answer, written in 64 KB pieces while the client reads.
        response.writeHead(how.status, { 'content-type': 'text/plain' });
        const piece = Buffer.alloc(65_536, 'x');
        let left = how.bytes;
        const pump = () => {
          while (left > 0) {
            left -= piece.length;
            if (!response.write(piece)) return void response.once('drain', pump);
          }
          response.end();
        };
        response.on('error', () => undefined);
        pump();
        return;
      }
      response.writeHead(how.status, { 'content-type': 'text/plain' }).end(how.body ?? '');
    });
  });
  receiver.url = (await listenOnLoopback(server)).replace(/\/$/, '');
  return receiver;
}

/** A syslog collector on UDP and TCP (octet counting): every record as text. */
export interface SyslogReceiver {
  udpPort: number;
  tcpPort: number;
  records: string[];
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Splits RFC 6587 octet-counted frames (`LENGTH SP RECORD`). */
function octetFrames(buffer: Buffer): { records: string[]; rest: Buffer } {
  const records: string[] = [];
  let rest = buffer;
  for (;;) {
    const space = rest.indexOf(0x20);
    if (space < 0) break;
    const length = Number(rest.subarray(0, space).toString('ascii'));
    if (rest.length < space + 1 + length) break;
    records.push(rest.subarray(space + 1, space + 1 + length).toString('utf8'));
    rest = rest.subarray(space + 1 + length);
  }
  return { records, rest };
}

export async function startSyslogReceiver(): Promise<SyslogReceiver> {
  const records: string[] = [];
  const udp: UdpSocket = createSocket('udp4');
  udp.on('message', (message) => records.push(message.toString('utf8')));
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()));
  const tcp: TcpServer = createTcpServer((socket) => {
    let buffer: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const framed = octetFrames(Buffer.concat([buffer, chunk]));
      records.push(...framed.records);
      buffer = framed.rest;
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
  return {
    udpPort: udp.address().port,
    tcpPort: (tcp.address() as AddressInfo).port,
    records,
    waitFor: (count) => waitUntil(`${count} syslog record(s)`, () => records.length >= count).then(() => undefined),
    close: async () => {
      udp.close();
      await new Promise<void>((r) => tcp.close(() => r()));
    },
  };
}

/** One mail as the SMTP receiver took it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The connection was upgraded with STARTTLS before the mail. */
  secure: boolean;
  user: string | null;
  raw: string;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server) offering STARTTLS with a self-signed certificate; login `user`/`password`. */
export async function startSmtpReceiver(login = { user: 'alerts', password: 'smtp pass' }): Promise<SmtpReceiver> {
  const dir = makeTempDir('pbx-smtp-');
  const { cert, key } = await selfSignedCertificate(dir);
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    key,
    cert,
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: true,
    // Credentials only over TLS, as a real relay does.
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : null,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    waitFor: (count) => waitUntil(`${count} mail(s)`, () => mails.length >= count).then(() => undefined),
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      removeTempDir(dir);
    },
  };
}
