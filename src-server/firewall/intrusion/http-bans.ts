import type { Logger } from 'pino';
import { tryBackgroundWrite } from '../../storage/background-write.ts';
import type { Db } from '../../storage/database.ts';
import { normalizeAddress } from '../model/index.ts';
import type { BanStore } from '../bans/index.ts';
import { WRONG_KEY_REASON, type IntrusionDetector } from './intrusion-detector.ts';

/** Whether a socket address has a ban in force (IPv6 text normalised to the stored form). */
export function isBannedAddress(bans: BanStore, ip: string): boolean {
  return bans.isBanned(ip) || (ip.includes(':') && bans.isBanned(normalizeAddress(ip) ?? ip));
}

/**
 * Lifts the `http` ban of `ip` if it was earned only with wrong API keys, and forgets its counted
 * failures. Used when the address proves it holds a valid key after failing with a wrong one (a
 * bouncer whose key was fixed). A ban earned by failed logins or bad tokens stays: a bouncer key
 * is no proof against password guessing. Returns whether a ban was lifted.
 */
export function liftHttpBan(
  deps: { db: Db; logger: Logger },
  bans: BanStore,
  detector: IntrusionDetector,
  ip: string,
  reason: string,
): boolean {
  const address = normalizeAddress(ip) ?? ip;
  const ban = bans.get('http', address);
  if (!ban || !ban.reason.startsWith(WRONG_KEY_REASON)) return false;
  // The bouncer is served either way: a locked database only postpones the lift to its next poll.
  if (
    !tryBackgroundWrite(
      deps.db,
      () => bans.lift('http', address),
      (error) => deps.logger.warn({ err: error, ip: address }, 'http ban not lifted yet; tried again at the next poll'),
    )
  )
    return false;
  detector.forgetIp(address);
  deps.logger.info({ ip: address, reason }, 'ban lifted');
  return true;
}
