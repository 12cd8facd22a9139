/** The blocklist feed's formats: those of CrowdSec's cs-blocklist-mirror (pkg/formatters), in its order. */
export const BLOCKLIST_FORMATS = ['plain_text', 'mikrotik', 'f5', 'juniper'] as const;
export type BlocklistFormat = (typeof BLOCKLIST_FORMATS)[number];

/**
 * Ban lists in the formats of `cscli decisions import` (json, csv with a header, values one per
 * line) and of OPNsense alias imports (an address, CIDR or `a-b` range, then a description).
 */
export const BAN_LIST_FORMATS = ['json', 'csv', 'values', 'opnsense'] as const;
export type BanListFormat = (typeof BAN_LIST_FORMATS)[number];

/**
 * The RouterOS `:global` a MikroTik feed leaves its cursor in, for the scheduler script's next
 * `since=` (RouterOS variable names: letters and digits only).
 */
export const feedCursorVariable = (listname: string): string => `PbxFeed${listname.replace(/[^A-Za-z0-9]/gu, '')}`;
