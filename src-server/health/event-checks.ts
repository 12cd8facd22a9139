import type { AccountFlag } from '../wire/types.ts';
import type { Finding } from './finding.ts';

/** `account-flagged` (issue 3/6): an account failing behind an address where other phones are registered. */
export function accountFlagFinding(flag: AccountFlag): { id: string; finding?: Finding } {
  const id = `account-flagged:${flag.account}@${flag.address}`;
  if (flag.state === 'cleared') return { id };
  const others = flag.registeredAccounts.filter((account) => account !== flag.account);
  return {
    id,
    finding: {
      id,
      kind: 'account-flagged',
      severity: 'warning',
      title:
        `Account ${flag.account} keeps failing from ${flag.address} (${flag.failures} failures), where ` +
        `${others.length ? others.join(', ') : 'other phones'} ${others.length === 1 ? 'is' : 'are'} registered: not banned`,
      recoveredTitle: `Account ${flag.account} at ${flag.address} is no longer flagged`,
      action: `Phones › ${flag.account}`,
      area: 'peers',
    },
  };
}

/** `cap-drops-own` (issue 4/6): a capped key leaves out entries of this PBX's own bans. */
export function capDropsOwnFinding(event: { keyId: number; keyName: string; leftOutOwn: number }): {
  id: string;
  finding?: Finding;
} {
  const id = `cap-drops-own:${event.keyId}`;
  if (event.leftOutOwn <= 0) return { id };
  const name = event.keyName.trim() ? `"${event.keyName.trim()}"` : `API key #${event.keyId}`;
  const words = `leaves out ${event.leftOutOwn} of this PBX's own bans (its cap is reached)`;
  return {
    id,
    finding: {
      id,
      kind: 'cap-drops-own',
      severity: 'warning',
      title: `Key ${name} ${words}`,
      redactedTitle: `Key API key #${event.keyId} ${words}`,
      recoveredTitle: `Key ${name} carries every one of this PBX's own bans again`,
      action: `API keys › ${event.keyName.trim() || `API key #${event.keyId}`}`,
      area: 'api-keys',
    },
  };
}
