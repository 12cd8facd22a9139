import type { Db } from '../../storage/database.ts';
import { filterRow, filterRows, type FilterRow } from '../../storage/network-filter-rows.ts';
import { parseRules, type NetworkFilter } from './filters.ts';

/**
 * The network filter store: filters as the firewall and the resources use them. The table's SQL is
 * in `storage/network-filter-rows.ts` (auth's network binding reads it too); validation is the
 * resource's (`resources/firewall/filter-save.ts`); this file maps rows to filters.
 */

export type { FilterRow };
export { insertFilter, removeFilter, replaceFilters, updateFilter } from '../../storage/network-filter-rows.ts';

export function rowToFilter(row: FilterRow): NetworkFilter {
  return {
    id: row.id,
    permit: row.permit,
    deny: row.deny,
    description: row.description,
    newer_block_ip: row.newer_block_ip === 1,
    local_network: row.local_network === 1,
    rules: parseRules(row.rules),
  };
}

/** All filters in id order. */
export function loadFilters(db: Db): NetworkFilter[] {
  return filterRows(db).map(rowToFilter);
}

/** One filter, or undefined. */
export function loadFilter(db: Db, id: number | string): NetworkFilter | undefined {
  const row = filterRow(db, id);
  return row ? rowToFilter(row) : undefined;
}
