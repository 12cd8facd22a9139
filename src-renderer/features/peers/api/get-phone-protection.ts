import type { Answer } from '#shared/contract/types.ts';
import { callOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

/** The addresses with registered phones (never cut off) and the accounts flagged behind them. */
export type PhoneProtection = Answer<'firewall.getPhoneProtection'>;
export type ProtectedAddress = PhoneProtection['addresses'][number];

export const phoneProtectionKey = ['peers', 'phone-protection'] as const;

/** firewall:getPhoneProtection: what registrations protect now, and which accounts fail behind them. */
export const getPhoneProtection = () => callOperation('firewall.getPhoneProtection');

export const usePhoneProtection = polledQuery(phoneProtectionKey, getPhoneProtection, 5_000);
