import type { ChannelConfig, SendContext, SendOutcome } from './channel-config.ts';
import type { ChannelType } from './channel-fields.ts';
import { sendEmail } from './email.ts';
import type { NotificationMessage } from './message.ts';
import { sendNtfy } from './ntfy.ts';
import { sendSyslog } from './syslog.ts';
import { sendWebhook } from './webhook.ts';

const SENDERS: Record<
  ChannelType,
  (channel: ChannelConfig, message: NotificationMessage, context: SendContext) => Promise<SendOutcome>
> = { webhook: sendWebhook, email: sendEmail, syslog: sendSyslog, ntfy: sendNtfy };

/** One attempt on a channel of any type. */
export const sendOnChannel = (channel: ChannelConfig, message: NotificationMessage, context: SendContext) =>
  SENDERS[channel.type](channel, message, context);
