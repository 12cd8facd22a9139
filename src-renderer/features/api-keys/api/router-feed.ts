import { feedCursorVariable, type BlocklistFormat } from '#shared/formats.ts';
/** The blocklist feed's formats (those of CrowdSec's cs-blocklist-mirror). */
export const FEED_FORMATS = [
  { value: 'plain_text', label: 'Plain text: one address or network per line (pfSense, OPNsense, Linux ipset)' },
  { value: 'mikrotik', label: 'MikroTik RouterOS script' },
  { value: 'f5', label: 'F5 BIG-IP (address,mask,bl,category)' },
  { value: 'juniper', label: 'Juniper SRX (one CIDR per line)' },
] as const satisfies readonly { value: BlocklistFormat; label: string }[];
export type FeedFormat = BlocklistFormat;

/** The address list (and set) name routers get: MikroTik list, firewall alias. */
export const FEED_LIST_NAME = 'pbx-blocklist';

/**
 * The feed's URL for a bouncer export URL (`…/firewall-bouncer/`). With `apiKey`, the key goes in as
 * the HTTP Basic password (`feed:<key>@host`), for devices that cannot send headers.
 */
export function feedUrl(apiUrl: string, format: FeedFormat, apiKey?: string): string {
  const url = new URL('blocklist', apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`);
  url.searchParams.set('format', format);
  if (format === 'mikrotik') url.searchParams.set('listname', FEED_LIST_NAME);
  if (apiKey) {
    url.username = 'feed';
    url.password = apiKey;
  }
  return url.toString();
}

/**
 * A RouterOS 7 script to paste in the terminal: a script that fetches the mikrotik feed (key in a
 * header) from the cursor the last run left in a `:global` (a delta, or the whole list when the
 * cursor is empty or unknown, as after a reboot) and runs it, a scheduler that runs it every `intervalMinutes` (the
 * key's feed interval, which its health check counts by; 5 by default) and at start-up, and raw-table
 * rules that drop the list's sources before connection tracking (input and forward alike).
 */
export function mikrotikScheduler(apiUrl: string, apiKey: string, intervalMinutes = 5): string {
  // Inside a RouterOS string a bare `?` is the console's help key when pasted: it is written `\?`.
  const url = feedUrl(apiUrl, 'mikrotik').replaceAll('?', '\\?');
  const cursor = feedCursorVariable(FEED_LIST_NAME);
  return [
    '# PBX blocklist for MikroTik RouterOS 7: paste into the terminal.',
    `/system script add name=${FEED_LIST_NAME}-update policy=ftp,read,write,policy,test source={`,
    `  :global ${cursor}`,
    `  :if ([:typeof $${cursor}] != "str") do={ :set ${cursor} "" }`,
    '  :do {',
    `    /tool fetch url=("${url}&since=" . $${cursor}) http-header-field="X-Api-Key: ${apiKey}" dst-path=${FEED_LIST_NAME}.rsc`,
    '    :delay 2s',
    `    /import file-name=${FEED_LIST_NAME}.rsc`,
    `  } on-error={ :log warning "${FEED_LIST_NAME}: fetching the PBX feed failed" }`,
    '}',
    `/system scheduler add name=${FEED_LIST_NAME} interval=${intervalMinutes}m start-time=startup on-event=${FEED_LIST_NAME}-update`,
    `/ip firewall raw add chain=prerouting src-address-list=${FEED_LIST_NAME} action=drop comment="PBX blocklist"`,
    `/ipv6 firewall raw add chain=prerouting src-address-list=${FEED_LIST_NAME} action=drop comment="PBX blocklist"`,
    `/system script run ${FEED_LIST_NAME}-update`,
    '',
  ].join('\n');
}

/** pfSense and OPNsense: a URL Table alias on the plain_text feed, and a block rule using it. */
export function urlTableSteps(apiUrl: string, apiKey: string): Array<{ product: string; steps: string[] }> {
  const url = feedUrl(apiUrl, 'plain_text', apiKey);
  return [
    {
      product: 'OPNsense',
      steps: [
        'Firewall → Aliases → Add.',
        `Name: ${FEED_LIST_NAME.replace('-', '_')}; Type: URL Table (IPs); Refresh Frequency: 0 days, 1 hour (or less).`,
        `Content: ${url}`,
        'Save and Apply.',
        `Firewall → Rules → WAN → Add: Action Block, Source ${FEED_LIST_NAME.replace('-', '_')}, ` +
          `Destination any; place it above your allow rules, then Apply.`,
      ],
    },
    {
      product: 'pfSense',
      steps: [
        'Firewall → Aliases → URLs → Add.',
        `Name: ${FEED_LIST_NAME.replace('-', '_')}; Type: URL Table (IPs); Update Freq.: 1 (days; pfBlockerNG refreshes hourly).`,
        `URL: ${url}`,
        'Save and Apply Changes.',
        `Firewall → Rules → WAN → Add: Action Block, Source: Single host or alias ` +
          `${FEED_LIST_NAME.replace('-', '_')}; place it above your pass rules, then Apply.`,
      ],
    },
  ];
}
