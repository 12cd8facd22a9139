import { isCatchAll } from '../../firewall/model/index.ts';
import { addManualBan, banLog, liftBans } from '../../firewall/bans/index.ts';
import {
  type BanScreen,
  describeCutOff,
  NeverBannedSet,
  readFail2ban,
  RegisteredAddresses,
} from '../../firewall/filters/index.ts';
import type { Db } from '../../storage/database.ts';
import { parseCidr } from '../../net/cidr.ts';
import { DEFAULT_LIMIT, pageOf, paginationOf } from '../../resource-kit/pagination.ts';
import { created, failure, invalid, ok } from '../../resource-kit/results.ts';
import { actorOf } from '../../resource-kit/actor.ts';
import { upstreamUnbanNotice } from '../../upstream/upstream-bans.ts';
import type { FirewallAction } from './declaration.ts';

/**
 * Why an operator's ban may not be written (the never-banned rule, firewall/filters/never-banned.ts): an
 * explicit ban is refused with the reason rather than carved, so the operator sees what it holds.
 * Loopback first, then unspecified, then every whitelisted or trusted range it overlaps.
 */
function manualBanRefusals(value: string, screen: BanScreen, db: Db): string[] {
  if (screen.kind === 'clear') return [];
  const holes = screen.kind === 'refused' ? [screen.holder] : screen.holes;
  if (holes.some((h) => h.kind === 'host loopback'))
    return [
      `ip: ${value} covers this PBX's own loopback address; such a ban would lock the PBX out and is never published to bouncers.`,
    ];
  if (holes.some((h) => h.kind === 'unspecified'))
    return [
      `ip: ${value} holds an unspecified address (0.0.0.0/8, ::) or the whole IPv4-mapped space ` +
        `(::ffff:0:0/96); no traffic comes from there, so ban the real addresses instead.`,
    ];
  // A whitelist entry is named with its comment and end, so the operator knows whose it is and for how long.
  const entries = new Map(readFail2ban(db).whitelistEntries.map((e) => [e.value, e]));
  const aboutEntry = (text: string) => {
    const entry = entries.get(text);
    if (!entry) return '';
    const parts = [entry.comment ? JSON.stringify(entry.comment) : '', entry.until ? `until ${entry.until}` : 'no end'];
    return ` (${parts.filter(Boolean).join(', ')})`;
  };
  return holes.map((h) =>
    h.kind === 'whitelisted'
      ? `ip: ${value} overlaps the whitelisted ${h.text}${aboutEntry(h.text)}; remove it from the whitelist first.`
      : `ip: ${value} overlaps the trusted network ${h.text} (Network filters); trusted networks are never banned.`,
  );
}

/**
 * `firewall:banIp {ip, duration, reason?, services?}`: the operator bans an address or a range for a
 * duration ("permanent" included). Published in the stream as `pbx/manual` with its real remaining
 * time; `services` (SIP, WEB, AMI, IAX; all when absent) says which of this server's own services
 * refuse it. Loopback, the catch-all and whitelisted or trusted networks are refused with the reason;
 * an address with registered phones gets 409 naming them unless `confirmCutOff` is set.
 */
export const banIp: FirewallAction<'banIp'> = (ctx) => {
  const { ip, duration: seconds, reason = '' } = ctx.input;
  const { value } = ip;
  const services = ctx.input.services ? [...new Set(ctx.input.services)] : null;
  // What no schema can say: the catch-all and the never-banned addresses are refused with the reason.
  const refusals = isCatchAll(parseCidr(value)!)
    ? [`ip: ${value} is every address; ban specific addresses or networks.`]
    : manualBanRefusals(value, NeverBannedSet.read(ctx.db, ctx.now()).screen(value), ctx.db);
  if (refusals.length) return invalid(refusals);
  // Registered phones are never cut off without the operator saying so (registered-addresses.ts).
  const cutOff = RegisteredAddresses.read(ctx.db, ctx.now()).protectedPhones(value);
  if (cutOff.size && !ctx.input.confirmCutOff)
    return failure(
      409,
      `Banning ${value} would cut off registered phones at ${describeCutOff(cutOff)}; ` +
        'nothing was banned. Send confirmCutOff: true to ban anyway.',
    );
  const id = addManualBan(ctx.db, { value, seconds, reason, services, by: actorOf(ctx) }, ctx.now());
  ctx.emit({ type: 'bans-added', ip: value });
  // A range is stored as its network (203.0.113.77/24 is 203.0.113.0/24): the answer says so.
  const written = ip.written !== value ? { written: ip.written.slice(0, 100) } : {};
  return created({
    id,
    ip: value,
    ...written,
    category: 'manual',
    scenario: 'pbx/manual',
    permanent: seconds === null,
    seconds,
    reason,
    services,
  });
};

/** `firewall:unbanIp {ip}`: lifts every ban of an address, or a manual ban of a range given as its CIDR. */
export const unbanIp: FirewallAction<'unbanIp'> = (ctx) => {
  const value = ctx.input.ip;
  const lifted = liftBans(ctx.db, value, ctx.now(), actorOf(ctx));
  ctx.emit({ type: 'bans-lifted', ip: value });
  const upstream = upstreamUnbanNotice(ctx.db, value, ctx.now());
  return ok({ ip: value, lifted }, upstream ? { messages: { warning: [upstream] } } : {});
};

/** `firewall:unbanIps {ips: [...]}`: bulk unban, validated first, lifted in one transaction. */
export const unbanIps: FirewallAction<'unbanIps'> = (ctx) => {
  const values = ctx.input.ips;
  const by = actorOf(ctx);
  const lifted = ctx.db.transaction(() =>
    values.reduce((sum, value) => sum + liftBans(ctx.db, value, ctx.now(), by), 0),
  )();
  for (const value of new Set(values)) ctx.emit({ type: 'bans-lifted', ip: value });
  return ok({ ips: [...new Set(values)], lifted });
};

/** `firewall:getBanLog?search=&category=&state=&limit=&offset=`: every ban, unban and expiry, newest first. */
export const getBanLog: FirewallAction<'getBanLog'> = (ctx) => {
  const { search, category, state } = ctx.input;
  const { limit, offset } = pageOf(ctx.input) ?? { limit: DEFAULT_LIMIT, offset: 0 };
  const { rows, total } = banLog(ctx.db, ctx.now(), { search, category, state, limit, offset });
  return ok(rows, { pagination: paginationOf(total, { limit, offset }, rows.length) });
};
