import { coverAuditChanges, coverEvents, coverMessages, liftBansCoveredBy } from '../../firewall/bans/index.ts';
import { entryInForce, FAIL2BAN_SETTING_KEY, fail2banFromStored } from '../../firewall/filters/index.ts';
import { parseCidr } from '../../net/cidr.ts';
import { writeSetting } from '../../storage/settings.ts';
import { actorOf } from '../../resource-kit/actor.ts';
import { validateFail2ban } from '../fail2ban/actions.ts';
import { fail2banDeclaration } from '../fail2ban/declaration.ts';
import { invalid, ok } from '../../resource-kit/results.ts';
import { prepareSave } from '../../resource-kit/save.ts';
import { readSingleton } from '../../resource-kit/singleton.ts';
import type { FirewallAction } from './declaration.ts';

/**
 * `firewall:unbanAndWhitelist {ip, comment?, until?}`: lifts every ban inside `ip` (an address or
 * CIDR) and whitelists it, for good (`until` null or absent) or until an ISO time, in one
 * transaction and one audit entry. An entry for the same value is replaced.
 */
export const unbanAndWhitelist: FirewallAction<'unbanAndWhitelist'> = (ctx) => {
  const body = ctx.input;
  const { value } = body.ip;
  const now = ctx.now();
  return ctx.db.transaction(() => {
    const existing = readSingleton(fail2banDeclaration, ctx, FAIL2BAN_SETTING_KEY);
    const kept = fail2banFromStored(existing).whitelistEntries.filter((e) => entryInForce(e, now) && e.value !== value);
    existing.whitelistEntries = kept;
    const entry = { value, comment: body.comment ?? '', until: body.until ?? null };
    const outcome = prepareSave({
      declaration: fail2banDeclaration,
      mode: 'patch',
      verb: 'PATCH',
      body: { whitelistEntries: [...kept, entry] },
      existing,
      validate: (complete) => validateFail2ban(ctx.db, complete, { now }),
    });
    if (!outcome.ok)
      return invalid(
        outcome.errors.map((e) => e.replace(`whitelistEntries[${kept.length}].`, '').replace(/^value:/, 'ip:')),
      );
    const { preset: _preset, ...stored } = outcome.complete;
    writeSetting(ctx.db, FAIL2BAN_SETTING_KEY, stored);
    const cover = liftBansCoveredBy(ctx.db, [{ text: value, cidr: parseCidr(value)! }], now, actorOf(ctx));
    ctx.emit({ type: 'resource-changed', resource: fail2banDeclaration.name });
    for (const event of coverEvents(cover)) ctx.emit(event);
    const saved = fail2banFromStored(stored).whitelistEntries.find((e) => e.value === value)!;
    const messages = coverMessages(cover);
    return ok(
      { ip: value, lifted: cover.lifted, whitelisted: saved },
      { messages: { error: [], ...messages }, auditChanges: coverAuditChanges(cover) },
    );
  })();
};
