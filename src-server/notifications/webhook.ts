import { createHmac } from 'node:crypto';
import type { ChannelConfig, SendContext, SendOutcome } from './channel-config.ts';
import { boundedPost } from './http-post.ts';
import type { NotificationMessage } from './message.ts';

export const SIGNATURE_HEADER = 'X-PBX-Signature';
export const TIMESTAMP_HEADER = 'X-PBX-Timestamp';

/** `sha256=<hex HMAC-SHA256 of the raw body>` with the channel's secret as the key. */
export const webhookSignature = (secret: string, rawBody: string): string =>
  `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;

/** The JSON a webhook receives; `sentAt` is inside the signed body, so a replay cannot change it. */
export function webhookBody(message: NotificationMessage, context: SendContext): string {
  return JSON.stringify({
    source: 'pbx-console',
    host: context.hostname,
    sentAt: new Date(context.now).toISOString(),
    test: message.test,
    rule: message.rule,
    subject: message.subject,
    text: message.text,
    severity: message.severity,
    recovery: message.recovery,
    omitted: message.omitted,
    events: message.events,
  });
}

export function sendWebhook(
  channel: ChannelConfig,
  message: NotificationMessage,
  context: SendContext,
): Promise<SendOutcome> {
  const body = webhookBody(message, context);
  return boundedPost(
    channel.url ?? '',
    {
      'content-type': 'application/json',
      'user-agent': 'pbx-console',
      [SIGNATURE_HEADER]: webhookSignature(channel.secret, body),
      [TIMESTAMP_HEADER]: String(Math.floor(context.now / 1000)),
    },
    body,
    context.timeoutMs,
  );
}
