import { freshnessMessages, freshnessOf, peerDetail, peerStatuses, registryStatuses } from '../../peers/peer-status.ts';
import { pageOf, paginationOf } from '../../resource-kit/pagination.ts';
import { ok, recordNotFound } from '../../resource-kit/results.ts';
import { defineActions, type ActionHandler, type PageInput } from '../../resource-kit/types.ts';
import { sipDeclaration } from './declaration.ts';

const getPeersStatuses: ActionHandler<PageInput> = (ctx) => {
  const page = pageOf(ctx.input);
  const freshness = freshnessOf(ctx.db, ctx.now());
  const all = peerStatuses(ctx.db, freshness);
  const data = page ? all.slice(page.offset, page.offset + page.limit) : all;
  return ok(data, { pagination: paginationOf(all.length, page, data.length), messages: freshnessMessages(freshness) });
};

/** Provider list answer shared by sip:getRegistry and providers:getStatuses. */
function providerList(withDescription: boolean): ActionHandler<PageInput> {
  return (ctx) => {
    const page = pageOf(ctx.input);
    const freshness = freshnessOf(ctx.db, ctx.now());
    const all = registryStatuses(ctx.db, freshness).map(({ state, id, username, host, description }) =>
      withDescription ? { state, id, username, host, description } : { state, id, username, host },
    );
    const data = page ? all.slice(page.offset, page.offset + page.limit) : all;
    return ok(data, {
      pagination: paginationOf(all.length, page, data.length),
      messages: freshnessMessages(freshness),
    });
  };
}

const getRegistry = providerList(false);

/** `providers:getStatuses`: the registry items plus each provider's description, for the console. */
export const getProviderStatuses = providerList(true);

const getStatus: ActionHandler = (ctx) => {
  const freshness = freshnessOf(ctx.db, ctx.now());
  const detail = peerDetail(ctx.db, ctx.id ?? '', freshness);
  if (!detail) return recordNotFound('extensions', ctx.id ?? '');
  return ok(detail, { messages: freshnessMessages(freshness) });
};

export const sipActions = defineActions(sipDeclaration, { custom: { getPeersStatuses, getRegistry, getStatus } });
