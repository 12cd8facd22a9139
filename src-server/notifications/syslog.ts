import { createSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { connect } from 'node:net';
import type { ChannelConfig, SendContext, SendOutcome } from './channel-config.ts';
import type { NotificationMessage } from './message.ts';
import { errorText } from './http-post.ts';

/*
 * Syslog is written here, not taken from npm: the maintained packages send either UDP or TCP
 * (not both), frame TCP by newline rather than octet counting (RFC 6587 3.4.1, which a message
 * holding a newline cannot break), and leave escaping to the caller. The format is small.
 */

/** local0 (16): the facility for site-local applications. */
const FACILITY = 16;
/** RFC 5424 severities: 2 critical, 4 warning, 5 notice (a recovery), 6 informational. */
const SEVERITY = { critical: 2, warning: 4, info: 6 } as const;
/** IANA's private enterprise number reserved for documentation (RFC 5612): our SD-ID is not registered. */
const SD_ID = 'pbx@32473';
/** RFC 5426: every receiver takes a 2048-byte datagram; longer ones may be cut anywhere. */
export const MAX_UDP_BYTES = 2048;

/** A header field (HOSTNAME, APP-NAME...): printable US-ASCII without space, bounded, `-` when empty. */
export function headerField(text: string, max: number): string {
  const kept = text.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return kept || '-';
}

/** A PARAM-VALUE: `"`, `\` and `]` escaped with a backslash (RFC 5424 6.3.3), control characters removed. */
export function paramValue(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/["\\\]]/g, (c) => `\\${c}`);
}

/** The text of MSG: one line (a newline would split the record for line-based collectors), UTF-8. */
const msgText = (message: NotificationMessage) =>
  [message.subject, ...message.text.split('\n')]
    .filter((line) => line.trim() !== '')
    .join(' | ')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ');

/** Cuts a UTF-8 buffer to `max` bytes without splitting a character. */
function cutUtf8(buffer: Buffer, max: number): Buffer {
  if (buffer.length <= max) return buffer;
  let end = max;
  while (end > 0 && (buffer[end]! & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end);
}

/** One RFC 5424 record: `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [SD] BOM MSG`. */
export function formatSyslog(
  message: NotificationMessage,
  options: { now: number; hostname: string; appName: string | null; maxBytes?: number },
): Buffer {
  const severity = message.recovery ? 5 : SEVERITY[message.severity];
  const params: [string, string][] = [
    ['severity', message.severity],
    ['recovery', String(message.recovery)],
    ['events', String(message.events.length + message.omitted)],
  ];
  if (message.rule) params.push(['rule', message.rule]);
  if (message.events.length === 1) params.push(['check', message.events[0]!.id]);
  const sd = `[${SD_ID} ${params.map(([name, value]) => `${name}="${paramValue(value)}"`).join(' ')}]`;
  const header = [
    `<${FACILITY * 8 + severity}>1`,
    new Date(options.now).toISOString(),
    headerField(options.hostname, 255),
    headerField(options.appName ?? 'pbx-console', 48),
    headerField(String(process.pid), 128),
    message.test ? 'test' : 'health',
  ].join(' ');
  const record = Buffer.concat([
    Buffer.from(`${header} ${sd} \u{feff}`, 'utf8'),
    Buffer.from(msgText(message), 'utf8'),
  ]);
  return cutUtf8(record, options.maxBytes ?? 8192);
}

function sendUdp(host: string, port: number, record: Buffer): Promise<SendOutcome> {
  return lookup(host).then(
    ({ address, family }) =>
      new Promise((resolve) => {
        const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
        socket.once('error', (error) => {
          socket.close();
          resolve({ ok: false, status: 0, message: errorText(error) });
        });
        socket.send(record, port, address, (error) => {
          socket.close();
          resolve(
            error
              ? { ok: false, status: 0, message: errorText(error) }
              : { ok: true, status: 0, message: 'sent (UDP: the collector does not acknowledge)' },
          );
        });
      }),
    (error: unknown) => ({ ok: false, status: 0, message: errorText(error) }),
  );
}

/** TCP with octet counting (RFC 6587 3.4.1): `LENGTH SP RECORD`, then the connection is closed. */
function sendTcp(host: string, port: number, record: Buffer, timeoutMs: number): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let settled = false;
    const done = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(timeoutMs, () => done({ ok: false, status: 0, message: 'no answer in time' }));
    socket.once('error', (error) => done({ ok: false, status: 0, message: errorText(error) }));
    // Whatever the collector writes back is not read into memory.
    socket.on('data', () => undefined);
    socket.once('connect', () => {
      socket.end(Buffer.concat([Buffer.from(`${record.length} `, 'ascii'), record]), () =>
        done({ ok: true, status: 0, message: 'delivered (TCP)' }),
      );
    });
  });
}

export function sendSyslog(
  channel: ChannelConfig,
  message: NotificationMessage,
  context: SendContext,
): Promise<SendOutcome> {
  const udp = channel.transport !== 'tcp';
  const record = formatSyslog(message, {
    now: context.now,
    hostname: context.hostname,
    appName: channel.appName,
    maxBytes: udp ? MAX_UDP_BYTES : 8192,
  });
  const host = channel.host ?? '';
  const port = channel.port ?? 514;
  return udp ? sendUdp(host, port, record) : sendTcp(host, port, record, context.timeoutMs);
}
