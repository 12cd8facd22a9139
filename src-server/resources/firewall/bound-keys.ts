import { filterLabel, loadFilter, type NetworkFilter, removeFilter } from '../../firewall/filters/index.ts';
import { parseCidr } from '../../net/cidr.ts';
import { keysBoundToFilter, networkFilterOfKey, rebindKeys } from '../../storage/api-key-rows.ts';
import type ipaddr from 'ipaddr.js';
import { failure, invalid, ok, recordNotFound } from '../../resource-kit/results.ts';
import type { ActionContext, ActionHandler, DeleteInput } from '../../resource-kit/types.ts';
import type { firewallDeclaration } from './declaration.ts';

/** An API key whose allowed source is a network filter. */
interface BoundKey {
  id: number;
  description: string;
}

/** The keys bound to a filter (their `networkfilterid` names it), in id order. */
export function keysBoundTo(ctx: ActionContext, filterId: number): BoundKey[] {
  return keysBoundToFilter(ctx.db, String(filterId));
}

/** The filter the calling API key is bound to, if the caller is such a key. */
function callerBinding(ctx: ActionContext): string | undefined {
  if (ctx.session?.auth_type !== 'api_key' || ctx.session.token_id === null) return undefined;
  return networkFilterOfKey(ctx.db, ctx.session.token_id);
}

const named = (keys: BoundKey[]) => keys.map((k) => `"${k.description}" (#${k.id})`).join(', ');

/** Whether range `outer` holds every address of `inner`. */
function holds(outer: string, inner: string): boolean {
  const a = parseCidr(outer);
  const b = parseCidr(inner);
  if (!a || !b || a[0].kind() !== b[0].kind() || a[1] > b[1]) return false;
  return (b[0] as ipaddr.IPv4).match(a as [ipaddr.IPv4, number]);
}

/**
 * A key bound to filter F proves where it is used from; letting it widen F (a larger permit, or
 * trusted) would let it lift its own restriction. Returns the refusal, or undefined.
 */
export function boundKeyRefusal(
  ctx: ActionContext,
  existing: NetworkFilter,
  next: { permit: string; newer_block_ip: number },
): string | undefined {
  if (callerBinding(ctx) !== String(existing.id)) return undefined;
  if (!holds(existing.permit, next.permit)) {
    return (
      `permit: this API key is bound to network filter ${filterLabel(existing)} and cannot widen ` +
      `it to ${next.permit}; only a key not bound to it (or the console) can.`
    );
  }
  if (next.newer_block_ip === 1 && !existing.newer_block_ip) {
    return `newer_block_ip: this API key is bound to network filter ${filterLabel(existing)} and cannot make it trusted.`;
  }
  return undefined;
}

/**
 * `DELETE firewall/{id}[?moveKeysTo=<filter id>|localhost]`. A filter that API keys are bound to
 * is their allowed source: deleting it would leave them naming a filter that does not exist (and a
 * backup the importer flags). So it is refused with 409 naming the keys, unless `moveKeysTo` says
 * where they go: another filter, or `localhost` (never "any address": that would widen them).
 */
export const deleteFilter: ActionHandler<DeleteInput<typeof firewallDeclaration>> = (ctx) =>
  ctx.db.transaction(() => {
    const id = ctx.id !== undefined && /^\d{1,15}$/.test(ctx.id) ? Number(ctx.id) : undefined;
    const filter = id === undefined ? undefined : loadFilter(ctx.db, id);
    if (!filter) return recordNotFound('firewall', ctx.id ?? '');
    const target = ctx.input.moveKeysTo;
    if (
      target !== undefined &&
      target !== 'localhost' &&
      !(/^\d{1,15}$/.test(target) && Number(target) !== filter.id && loadFilter(ctx.db, target))
    ) {
      return invalid([
        `moveKeysTo: "${String(target).slice(0, 40)}" is neither another network filter's id nor localhost.`,
      ]);
    }
    const bound = keysBoundTo(ctx, filter.id);
    if (bound.length && callerBinding(ctx) === String(filter.id)) {
      return failure(
        403,
        `This API key is bound to network filter ${filterLabel(filter)}: it cannot delete the filter that restricts it.`,
      );
    }
    if (bound.length && target === undefined) {
      return failure(
        409,
        `Network filter ${filterLabel(filter)} is the allowed source of the API keys ` +
          `${named(bound)}. Bind them elsewhere first, or delete with ?moveKeysTo=<another filter's ` +
          `id> or ?moveKeysTo=localhost.`,
      );
    }
    if (bound.length) {
      rebindKeys(ctx.db, String(filter.id), target!);
      ctx.emit({ type: 'resource-changed', resource: 'api-keys' });
    }
    removeFilter(ctx.db, filter.id);
    ctx.emit({ type: 'resource-changed', resource: 'firewall' });
    return ok({ id: filter.id, movedKeys: bound.map((k) => ({ ...k, networkfilterid: target })) });
  })();
