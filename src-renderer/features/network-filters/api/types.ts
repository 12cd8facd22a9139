export const FILTER_CATEGORIES = ['SIP', 'WEB', 'AMI', 'IAX'] as const;
export type FilterCategory = (typeof FILTER_CATEGORIES)[number];

export const CATEGORY_HINTS: Record<FilterCategory, string> = {
  SIP: 'SIP signalling (5060/5061) and RTP media',
  WEB: 'This web console and the REST API',
  AMI: 'Asterisk manager interface (5038)',
  IAX: 'IAX2 trunks (4569)',
};

/** A network filter as the API reads it. */
export interface NetworkFilter {
  id: string | number;
  permit: string;
  deny: string;
  description: string;
  newer_block_ip: boolean | number | string;
  local_network: boolean | number | string;
  rules: Partial<Record<FilterCategory, 'allow' | 'block'>>;
}

/** A network filter as the API writes it: `currentRules` true = allow. */
export interface NetworkFilterInput {
  permit: string;
  deny: string;
  description: string;
  newer_block_ip: boolean;
  local_network: boolean;
  currentRules: Record<FilterCategory, boolean>;
}

/** The API may give flags as booleans, 0/1 or "0"/"1". */
export const isSet = (flag: unknown) => flag === true || flag === 1 || flag === '1' || flag === 'true';

/** The form values for an existing filter. */
export function toInput(filter: NetworkFilter): NetworkFilterInput {
  return {
    permit: filter.permit,
    deny: filter.deny ?? '0.0.0.0/0',
    description: filter.description ?? '',
    newer_block_ip: isSet(filter.newer_block_ip),
    local_network: isSet(filter.local_network),
    currentRules: Object.fromEntries(FILTER_CATEGORIES.map((c) => [c, filter.rules?.[c] !== 'block'])) as Record<FilterCategory, boolean>,
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
