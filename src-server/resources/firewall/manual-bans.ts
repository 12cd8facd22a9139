import { isCatchAll, normalizeAddress, normalizeCidrText } from '../../firewall/addresses.ts';
import { addManualBan, banLog, liftBans, parseBanDuration } from '../../firewall/ban-queries.ts';
import type { BanLogEntry } from '../../../src-shared/ban-log.ts';
import type { BanKind } from '../../firewall/decisions.ts';
import { NeverBannedSet, type BanScreen } from '../../firewall/never-banned.ts';
import { parseCidr } from '../../net/cidr.ts';
import { parsePageRequest, paginationOf } from '../../resource-kit/pagination.ts';
import { created, invalid, ok } from '../../resource-kit/results.ts';
import { actorOf } from '../../resource-kit/actor.ts';
import type { ActionHandler } from '../../resource-kit/types.ts';
import { upstreamUnbanNotice } from '../../upstream/upstream-bans.ts';

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[value.length - 1] : value);

/**
 * Why an operator's ban may not be written (the never-banned rule, firewall/never-banned.ts): an
 * explicit ban is refused with the reason rather than carved, so the operator sees what it holds.
 * Loopback first, then unspecified, then every whitelisted or trusted range it overlaps.
 */
function manualBanRefusals(value: string, screen: BanScreen): string[] {
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
  return holes.map((h) =>
    h.kind === 'whitelisted'
      ? `ip: ${value} overlaps the whitelisted ${h.text} (Whitelist page); remove it from the whitelist first.`
      : `ip: ${value} overlaps the trusted network ${h.text} (Network filters); trusted networks are never banned.`,
  );
}

/**
 * `firewall:banIp {ip, duration, reason?, services?}`: the operator bans an address or a range for a
 * duration ("permanent" included). Published in the stream as `pbx/manual` with its real remaining
 * time; `services` (SIP, WEB, AMI, IAX; all when absent) says which of this server's own services
 * refuse it. Loopback, the catch-all and whitelisted or trusted networks are refused with the reason.
 */
export const banIp: ActionHandler = (ctx) => {
  // The declared input holds: ip a non-empty string, reason at most 200 characters, services a non-empty list of categories.
  const body = (ctx.body ?? {}) as { ip: string; duration?: unknown; reason?: string; services?: string[] | null };
  const errors: string[] = [];
  const raw = body.ip;
  const value = normalizeCidrText(raw);
  if (!value) errors.push(`ip: "${raw.slice(0, 100)}" is not an IPv4 or IPv6 address or CIDR.`);
  const duration = parseBanDuration(body.duration ?? 'permanent');
  if (!duration.ok) errors.push(duration.message);
  const reason = body.reason ?? '';
  const services = body.services ? [...new Set(body.services)] : null;
  if (value) {
    if (isCatchAll(parseCidr(value)!))
      errors.push(`ip: ${value} is every address; ban specific addresses or networks.`);
    else errors.push(...manualBanRefusals(value, NeverBannedSet.read(ctx.db, ctx.now()).screen(value)));
  }
  if (errors.length || !value || !duration.ok) return invalid(errors);
  const id = addManualBan(ctx.db, { value, seconds: duration.seconds, reason, services, by: actorOf(ctx) }, ctx.now());
  ctx.emit({ type: 'bans-added', ip: value });
  // A range is stored as its network (203.0.113.77/24 is 203.0.113.0/24): the answer says so.
  const written = raw.trim() !== value ? { written: raw.trim().slice(0, 100) } : {};
  return created({
    id,
    ip: value,
    ...written,
    category: 'manual',
    scenario: 'pbx/manual',
    permanent: duration.seconds === null,
    seconds: duration.seconds,
    reason,
    services,
  });
};

/** `firewall:unbanIp {ip}`: lifts every ban of an address, or a manual ban of a range given as its CIDR. */
export const unbanIp: ActionHandler = (ctx) => {
  const raw = (ctx.body as { ip: string }).ip; // a non-empty string: the declared input
  const value = raw.includes('/') ? normalizeCidrText(raw) : normalizeAddress(raw);
  if (!value)
    return invalid([`ip: "${raw.slice(0, 100)}" is not a valid IPv4 or IPv6 address (or a banned range's CIDR).`]);
  const lifted = liftBans(ctx.db, value, ctx.now(), actorOf(ctx));
  ctx.emit({ type: 'bans-lifted', ip: value });
  const upstream = upstreamUnbanNotice(ctx.db, value, ctx.now());
  return ok({ ip: value, lifted }, upstream ? { messages: { warning: [upstream] } } : {});
};

/** `firewall:unbanIps {ips: [...]}`: bulk unban, validated first, lifted in one transaction. */
export const unbanIps: ActionHandler = (ctx) => {
  const list = (ctx.body as { ips: string[] }).ips; // 1 to 1000 strings: the declared input
  const values: string[] = [];
  const errors: string[] = [];
  list.forEach((text, i) => {
    const value = text.includes('/') ? normalizeCidrText(text) : normalizeAddress(text);
    if (value) values.push(value);
    else errors.push(`ips[${i}]: "${text.slice(0, 100)}" is not a valid address or range.`);
  });
  if (errors.length) return invalid(errors);
  const by = actorOf(ctx);
  const lifted = ctx.db.transaction(() =>
    values.reduce((sum, value) => sum + liftBans(ctx.db, value, ctx.now(), by), 0),
  )();
  for (const value of new Set(values)) ctx.emit({ type: 'bans-lifted', ip: value });
  return ok({ ips: [...new Set(values)], lifted });
};

/** `firewall:getBanLog?search=&category=&state=&limit=&offset=`: every ban, unban and expiry, newest first. */
export const getBanLog: ActionHandler = (ctx) => {
  const page = parsePageRequest(ctx.query);
  if (page && 'errors' in page) return invalid(page.errors);
  const search = single(ctx.query.search)?.slice(0, 100);
  // Only known categories and states pass the declared input.
  const category = single(ctx.query.category);
  const state = single(ctx.query.state);
  const limit = page?.limit ?? 50;
  const offset = page?.offset ?? 0;
  const { rows, total } = banLog(ctx.db, ctx.now(), {
    search: search || undefined,
    category: category as BanKind | undefined,
    state: state as BanLogEntry['state'] | undefined,
    limit,
    offset,
  });
  return ok(rows, { pagination: paginationOf(total, { limit, offset }, rows.length) });
};
