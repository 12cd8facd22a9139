import { cidrContains, parseAddress } from '../net/cidr.ts';
import type { Db } from '../storage/database.ts';
import { filterPermit } from '../storage/network-filter-rows.ts';

/**
 * Whether a key bound to `networkFilterId` may be used from `ip`: 'none' allows any source,
 * 'localhost' only 127.0.0.1 and ::1, a filter id only addresses inside that filter's `permit`.
 * A binding to a filter that no longer exists denies (fail closed).
 */
export function sourceAllowed(db: Db, networkFilterId: string, ip: string): boolean {
  if (networkFilterId === '' || networkFilterId === 'none') return true;
  const address = parseAddress(ip);
  if (!address) return false;
  if (networkFilterId === 'localhost') {
    const text = address.toString();
    return text === '127.0.0.1' || text === '::1';
  }
  if (!/^\d+$/.test(networkFilterId)) return false;
  const permit = filterPermit(db, Number(networkFilterId));
  if (permit === undefined) return false;
  return permit
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .some((cidr) => cidrContains(cidr, address.toString()));
}
