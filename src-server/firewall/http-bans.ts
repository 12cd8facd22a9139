import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../storage/database.ts';
import { normalizeAddress } from './addresses.ts';
import type { BanStore } from './ban-store.ts';
import type { IntrusionDetector } from './intrusion-detector.ts';

/** Whether a socket address has a ban in force (IPv6 text normalised to the stored form). */
export function isBannedAddress(bans: BanStore, ip: string): boolean {
  return bans.isBanned(ip) || (ip.includes(':') && bans.isBanned(normalizeAddress(ip) ?? ip));
}

/**
 * Lifts the `http` ban of `ip`, if any, and forgets its counted failures. Used when the address
 * proves it holds a valid credential after failing with a wrong one. Returns whether a ban was lifted.
 */
export function liftHttpBan(
  deps: { db: Db; clock: Clock; logger: Logger },
  bans: BanStore,
  detector: IntrusionDetector,
  ip: string,
  reason: string,
): boolean {
  const address = normalizeAddress(ip) ?? ip;
  if (!bans.get('http', address)) return false;
  deps.db.prepare("UPDATE firewall_bans SET lifted_at = ? WHERE ip = ? AND category = 'http' AND lifted_at IS NULL").run(deps.clock.now(), address);
  bans.reloadIp(address);
  detector.forgetIp(address);
  deps.logger.info({ ip: address, reason }, 'ban lifted');
  return true;
}
