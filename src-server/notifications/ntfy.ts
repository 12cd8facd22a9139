import type { ChannelConfig, SendContext, SendOutcome } from './channel-config.ts';
import { boundedPost } from './http-post.ts';
import type { NotificationMessage } from './message.ts';
import { oneLine } from './text.ts';

/**
 * An HTTP header value: one line (CR/LF and every control character removed), and RFC 2047
 * (`=?UTF-8?B?...?=`) when it is not plain ASCII, which ntfy decodes for Title and Tags; fetch
 * refuses raw non-Latin-1 header values.
 */
export function headerValue(text: string, max = 200): string {
  const line = oneLine(text, max);
  return /^[\x20-\x7e]*$/.test(line) ? line : `=?UTF-8?B?${Buffer.from(line, 'utf8').toString('base64')}?=`;
}

const PRIORITY = { critical: '5', warning: '4', info: '3' } as const;

/** ntfy's publish API: POST the text to `<server>/<topic>` with Title, Priority and Tags headers. */
export function sendNtfy(
  channel: ChannelConfig,
  message: NotificationMessage,
  context: SendContext,
): Promise<SendOutcome> {
  const server = (channel.url ?? '').replace(/\/+$/, '');
  const tags = message.test
    ? 'test_tube'
    : message.recovery
      ? 'white_check_mark'
      : message.severity === 'critical'
        ? 'rotating_light'
        : 'warning';
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    'user-agent': 'pbx-console',
    Title: headerValue(message.subject),
    Priority: message.recovery || message.test ? '3' : PRIORITY[message.severity],
    Tags: tags,
  };
  if (channel.secret) headers.Authorization = `Bearer ${channel.secret}`;
  return boundedPost(`${server}/${encodeURIComponent(channel.topic ?? '')}`, headers, message.text, context.timeoutMs);
}
