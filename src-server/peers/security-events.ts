import { parseAddress } from '../net/cidr.ts';
import type { AmiMessage } from './ami-protocol.ts';

/**
 * Asterisk's security events that count as a failed attempt: fail2ban's Asterisk filter's four
 * (FailedACL, InvalidAccountID, ChallengeResponseFailed, InvalidPassword) and RequestBadFormat,
 * which scanners cause (a request Asterisk cannot even parse is no user's typo).
 */
export const SECURITY_FAILURE_EVENTS = new Set([
  'InvalidPassword',
  'ChallengeResponseFailed',
  'InvalidAccountID',
  'FailedACL',
  'RequestBadFormat',
]);

/**
 * The other event names of Asterisk's `sec_events[]` (main/security_events.c): informational
 * (SuccessfulAuth, ChallengeSent) or about Asterisk itself (limits, unsupported requests, a
 * phone on the wrong transport), so never counted.
 */
const SECURITY_OTHER_EVENTS = new Set([
  'SessionLimit',
  'MemoryLimit',
  'LoadAverageLimit',
  'RequestNotSupported',
  'RequestNotAllowed',
  'AuthMethodNotAllowed',
  'SuccessfulAuth',
  'UnexpectedAddress',
  'ChallengeSent',
  'InvalidTransport',
]);

export type SecurityCategory = 'sip' | 'iax' | 'ami';

export interface SecurityFailure {
  category: SecurityCategory;
  ip: string;
  reason: string;
  /** The AccountID tried, when the event names one. */
  account?: string;
}

/** What one security event means for the ban component. */
export type SecurityOutcome =
  | (Omit<SecurityFailure, 'account'> & { kind: 'counted'; event: string; account: string | null })
  | { kind: 'ignored'; event: string; why: string }
  | { kind: 'malformed'; event: string; problem: string };

/**
 * Asterisk's HTTP server carries AMI over HTTP (and ARI): both manage Asterisk, so an `HTTP`
 * failure bans in the `ami` category, never in the console's own `http` one.
 */
const CATEGORY_BY_SERVICE: Record<string, SecurityCategory> = {
  SIP: 'sip',
  PJSIP: 'sip',
  IAX2: 'iax',
  IAX: 'iax',
  AMI: 'ami',
  HTTP: 'ami',
};

/** Longer than any field Asterisk writes (a Call-ID, a SIP user): beyond it the event is junk. */
export const MAX_SECURITY_FIELD_CHARS = 1024;
/** How much of an account name a failure carries (the flags show it). */
export const ACCOUNT_CHARS = 64;

/** How much of an account name a ban reason quotes. */
const REASON_ACCOUNT_CHARS = 64;

/**
 * The address of an Asterisk `RemoteAddress`: `IPV4/UDP/203.0.113.9/5060`,
 * `IPV6/TLS/[2001:db8::1]/5061`; an IPv4-mapped IPv6 source (`IPV6/UDP/[::ffff:203.0.113.9]/5060`,
 * or `IPV6/UDP/203.0.113.9/5060` as netsock2 prints it) comes back in its IPv4 form.
 */
export function addressOfRemote(remote: string): string | undefined {
  const parts = remote.trim().split('/');
  if (parts.length < 3 || parts.length > 4 || !/^IPV[46]$/i.test(parts[0]!)) return undefined;
  if (parts.length === 4 && !/^\d{1,5}$/.test(parts[3]!)) return undefined;
  const host = parts[2]!.replace(/^\[(.*)\]$/, '$1');
  const address = parseAddress(host);
  return address ? address.toString() : undefined;
}

/**
 * Classifies an AMI event: undefined when it is no security event; `counted` for a failure with
 * its category, canonical address and account; `ignored` for the informational ones and services
 * not watched; `malformed` for a failure missing its service or address, or with a field far longer
 * than Asterisk ever writes (dropped: never counted, never banned).
 */
export function classifySecurityEvent(event: AmiMessage): SecurityOutcome | undefined {
  const name = event.Event ?? '';
  const failure = SECURITY_FAILURE_EVENTS.has(name);
  if (!failure && !SECURITY_OTHER_EVENTS.has(name)) return undefined;
  // for-in, not Object.entries: this runs for every event of a scanner's burst.
  for (const key in event) {
    const length = event[key]!.length;
    if (length > MAX_SECURITY_FIELD_CHARS)
      return { kind: 'malformed', event: name, problem: `field ${key.slice(0, 40)} is ${length} characters long` };
  }
  if (!failure) return { kind: 'ignored', event: name, why: 'not a failure' };
  const service = event.Service;
  if (!service) return { kind: 'malformed', event: name, problem: 'no Service' };
  const category = CATEGORY_BY_SERVICE[service.toUpperCase()];
  if (!category) return { kind: 'ignored', event: name, why: `service ${service.slice(0, 40)} not watched` };
  if (event.RemoteAddress === undefined) return { kind: 'malformed', event: name, problem: 'no RemoteAddress' };
  const ip = addressOfRemote(event.RemoteAddress);
  if (!ip)
    return {
      kind: 'malformed',
      event: name,
      problem: `unreadable RemoteAddress "${event.RemoteAddress.slice(0, 80)}"`,
    };
  const account = event.AccountID?.trim() || null;
  const quoted = account ? ` account "${account.slice(0, REASON_ACCOUNT_CHARS)}"` : '';
  return { kind: 'counted', event: name, category, ip, account, reason: `${name} (${service}${quoted})` };
}

/** Maps an AMI security event to a failure for the ban component; undefined for anything else. */
export function securityFailureOf(event: AmiMessage): SecurityFailure | undefined {
  const outcome = classifySecurityEvent(event);
  if (outcome?.kind !== 'counted') return undefined;
  const { category, ip, reason, account } = outcome;
  return { category, ip, reason, ...(account ? { account: account.slice(0, ACCOUNT_CHARS) } : {}) };
}
