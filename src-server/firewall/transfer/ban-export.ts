import type { BanListFormat } from './ban-import.ts';
import type { BannedIp } from '../bans/index.ts';
import { defuseCell } from '../../../src-shared/csv-cells.ts';
import { scopeOf } from '../model/index.ts';

/** A ban as an export lists it: what an import needs to make the same ban again. */
interface ExportedBan {
  value: string;
  /** Whole seconds left as `<n>s`, or `permanent`. */
  duration: string;
  reason: string;
  scope: 'Ip' | 'Range';
  type: 'ban';
  scenario: string;
  services?: string[];
}

const CSV_COLUMNS = ['value', 'duration', 'reason', 'scope', 'type', 'scenario', 'services'] as const;

/** A CSV field, quoted when it holds a separator, a quote, a line break or edge spaces (RFC 4180). */
const csvField = (text: string) => (/[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function exported(ban: BannedIp): ExportedBan {
  return {
    value: ban.ip,
    duration: ban.secondsLeft === null ? 'permanent' : `${ban.secondsLeft}s`,
    reason: ban.reason ?? '',
    scope: scopeOf(ban.ip),
    type: 'ban',
    scenario: `pbx/${ban.category}`,
    ...(ban.services ? { services: ban.services } : {}),
  };
}

/**
 * Active bans in an import format, sorted by value. json and csv keep everything an import reads
 * back (duration left, reason, services); values and opnsense keep the addresses (and opnsense the
 * reason as its description), so their import takes the default duration. A csv cell a
 * spreadsheet would evaluate is defused (csv-cells.ts), and the import restores it.
 */
export function renderBanExport(bans: readonly BannedIp[], format: BanListFormat): string {
  const rows = bans
    .map(exported)
    .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : a.scenario < b.scenario ? -1 : 1));
  switch (format) {
    case 'json':
      return `${JSON.stringify(rows, null, 1)}\n`;
    case 'csv':
      return (
        [
          CSV_COLUMNS.join(','),
          ...rows.map((row) =>
            CSV_COLUMNS.map((column) =>
              csvField(defuseCell(column === 'services' ? (row.services ?? []).join(' ') : row[column])),
            ).join(','),
          ),
        ].join('\n') + '\n'
      );
    case 'values':
      return rows.map((row) => `${row.value}\n`).join('');
    case 'opnsense':
      return rows
        .map((row) => `${[row.value, row.reason.replace(/[\r\n]+/g, ' ').trim()].filter(Boolean).join(' ')}\n`)
        .join('');
  }
}
