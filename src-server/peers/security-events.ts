import { parseAddress } from '../net/cidr.ts';
import type { AmiMessage } from './ami-protocol.ts';

/** Asterisk security events that count as a failed attempt for the intrusion-ban component. */
export const SECURITY_FAILURE_EVENTS = new Set([
  'InvalidPassword',
  'ChallengeResponseFailed',
  'InvalidAccountID',
  'FailedACL',
  'RequestBadFormat',
]);

export type SecurityCategory = 'sip' | 'iax' | 'ami';

export interface SecurityFailure {
  category: SecurityCategory;
  ip: string;
  reason: string;
  /** The AccountID tried, when the event names one. */
  account?: string;
}

const CATEGORY_BY_SERVICE: Record<string, SecurityCategory> = {
  SIP: 'sip',
  PJSIP: 'sip',
  IAX2: 'iax',
  IAX: 'iax',
  AMI: 'ami',
};

/** The address of an Asterisk `RemoteAddress` such as `IPV4/UDP/203.0.113.9/5060` or `IPV6/UDP/[2001:db8::1]/5060`. */
export function addressOfRemote(remote: string): string | undefined {
  const parts = remote.trim().split('/');
  if (parts.length < 3 || !/^IPV[46]$/i.test(parts[0]!)) return undefined;
  const host = parts[2]!.replace(/^\[|\]$/g, '');
  const address = parseAddress(host);
  return address ? address.toString() : undefined;
}

/** Maps an AMI security event to a failure for the ban component; undefined for anything else. */
export function securityFailureOf(event: AmiMessage): SecurityFailure | undefined {
  const name = event.Event ?? '';
  if (!SECURITY_FAILURE_EVENTS.has(name)) return undefined;
  const category = CATEGORY_BY_SERVICE[(event.Service ?? '').toUpperCase()];
  const ip = addressOfRemote(event.RemoteAddress ?? '');
  if (!category || !ip) return undefined;
  const account = (event.AccountID ?? '').slice(0, 64);
  const reason = `${name} (${event.Service}${account ? ` account "${account}"` : ''})`;
  return { category, ip, reason, ...(account ? { account } : {}) };
}
