import type { ChannelType } from './channel-fields.ts';

/** A channel as a sender reads it: its settings and its secret in clear (never logged, never answered). */
export interface ChannelConfig {
  id: number;
  name: string;
  type: ChannelType;
  enabled: boolean;
  url: string | null;
  topic: string | null;
  host: string | null;
  port: number | null;
  transport: 'udp' | 'tcp' | null;
  security: 'starttls' | 'tls' | null;
  tlsVerify: boolean;
  username: string | null;
  from: string | null;
  to: string | null;
  appName: string | null;
  secret: string;
}

/** A send's outcome: delivered or not, the receiver's status (0 for none) and what it said, in one line. */
export interface SendOutcome {
  ok: boolean;
  status: number;
  message: string;
}

export interface SendContext {
  /** Bound of one attempt, connection to answer. */
  timeoutMs: number;
  /** This machine's name, as the syslog HOSTNAME and the subject's prefix. */
  hostname: string;
  now: number;
}
