/** Query parameters the console keeps as numbers: the page and a time window (the query string carries their digits). */
type NumberParameter = 'limit' | 'offset' | 'minutes';

/**
 * A screen's filter over a GET's query parameters (`Query<Op>` of the contract): each parameter it
 * sets, '' for "no filter", the page and window as numbers. A parameter the contract does not list fails the
 * typecheck, so a rename on the server reaches the screen.
 */
export type QueryFilter<Q, K extends keyof Q> = {
  [P in K]-?: P extends NumberParameter ? number : '' | Exclude<Q[P], undefined>;
};

/** A filter as its query string: text trimmed, '' (no filter) left out, numbers as they are. */
export function filterQuery<F extends Record<string, string | number>>(filter: F) {
  return Object.fromEntries(
    Object.entries(filter).map(([name, value]) => [
      name,
      typeof value === 'string' ? value.trim() || undefined : value,
    ]),
  ) as { [K in keyof F]?: Exclude<F[K], ''> };
}
