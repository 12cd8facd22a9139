import { SERVICE_CATEGORIES, type ServiceCategory } from '#shared/categories.ts';
import type { Body, RecordOf } from '#shared/contract/types.ts';

export const FILTER_CATEGORIES = SERVICE_CATEGORIES;
export type FilterCategory = ServiceCategory;

export const CATEGORY_HINTS: Record<FilterCategory, string> = {
  SIP: 'SIP signalling (5060/5061) and RTP media',
  WEB: 'This web console and the REST API',
  AMI: 'Asterisk manager interface (5038)',
  IAX: 'IAX2 trunks (4569)',
};

/** The services as a firewall rule page names them. */
export const CATEGORY_NAMES: Record<FilterCategory, string> = {
  SIP: 'SIP',
  WEB: 'Web console and API',
  AMI: 'AMI',
  IAX: 'IAX',
};

/** A network filter as the API reads it (the write-side `currentRules` is read back as `rules`). */
export type NetworkFilter = Omit<RecordOf<'Firewall'>, 'currentRules'>;

/** What POST firewall and PUT firewall/{id} take. */
export type NetworkFilterBody = Body<'firewall.create'>;

/**
 * The filter form's values, sent as they are: the contract's write body with every field the form
 * fills, and `currentRules` (true = allow) holding the four this server acts on, plus the
 * stored-only ones the filter has (kept as they are by an edit).
 */
export type NetworkFilterInput = Required<
  Pick<NetworkFilterBody, 'permit' | 'deny' | 'description' | 'newer_block_ip' | 'local_network'>
> & {
  currentRules: Record<FilterCategory, boolean> & NonNullable<NetworkFilterBody['currentRules']>;
};

/** The form values for an existing filter. */
export function toInput(filter: NetworkFilter): NetworkFilterInput {
  return {
    permit: filter.permit,
    deny: filter.deny ?? '0.0.0.0/0',
    description: filter.description ?? '',
    newer_block_ip: filter.newer_block_ip,
    local_network: filter.local_network,
    currentRules: {
      ...Object.fromEntries(Object.entries(filter.rules).map(([c, rule]) => [c, rule !== 'block'])),
      ...(Object.fromEntries(FILTER_CATEGORIES.map((c) => [c, filter.rules[c] !== 'block'])) as Record<
        FilterCategory,
        boolean
      >),
    },
  };
}

export const emptyFilterInput = (): NetworkFilterInput => ({
  permit: '',
  deny: '0.0.0.0/0',
  description: '',
  newer_block_ip: false,
  local_network: false,
  currentRules: { SIP: true, WEB: true, AMI: true, IAX: true },
});
