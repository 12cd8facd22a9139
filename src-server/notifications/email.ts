import nodemailer from 'nodemailer';
import type { ChannelConfig, SendContext, SendOutcome } from './channel-config.ts';
import type { NotificationMessage } from './message.ts';
import { oneLine, receiverSaid } from './text.ts';

/**
 * E-mail through nodemailer: STARTTLS required (`requireTLS`: no fallback to clear text when the
 * server does not offer it) or TLS from the first byte. The subject is one line (CR/LF removed)
 * before nodemailer encodes it, so no text of an event can add a header.
 */
export async function sendEmail(
  channel: ChannelConfig,
  message: NotificationMessage,
  context: SendContext,
): Promise<SendOutcome> {
  const transport = nodemailer.createTransport({
    host: channel.host ?? '',
    port: channel.port ?? 587,
    secure: channel.security === 'tls',
    requireTLS: channel.security !== 'tls',
    auth: channel.username ? { user: channel.username, pass: channel.secret } : undefined,
    tls: { rejectUnauthorized: channel.tlsVerify, servername: channel.host ?? undefined },
    connectionTimeout: context.timeoutMs,
    greetingTimeout: context.timeoutMs,
    socketTimeout: context.timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
    name: oneLine(context.hostname, 64).replace(/[^A-Za-z0-9.-]/g, '') || 'localhost',
  });
  try {
    const info = await transport.sendMail({
      from: channel.from ?? '',
      to: (channel.to ?? '').split(',').map((address) => address.trim()),
      subject: oneLine(message.subject, 200),
      text: message.text,
      headers: { 'X-PBX-Console': message.test ? 'test' : 'health' },
    });
    return { ok: true, status: 250, message: receiverSaid(`delivered: ${String(info.response ?? '')}`) };
  } catch (error) {
    const err = error as { responseCode?: number; code?: string; message?: string };
    return {
      ok: false,
      status: err.responseCode ?? 0,
      message: receiverSaid([err.code, err.message].filter(Boolean).join(': ') || String(error)),
    };
  } finally {
    transport.close();
  }
}
