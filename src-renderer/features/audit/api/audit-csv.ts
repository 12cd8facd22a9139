import { defuseCell } from '#shared/csv-cells.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { auditSentence } from './audit-sentence.ts';
import { fieldLabel, valueText } from './audit-values.ts';
import type { AuditEntry } from './get-audit-log.ts';

/** One CSV cell: defused for spreadsheets (the rule the ban export uses), quoted when it holds a separator, a quote or a line break. */
const cell = (value: string) => {
  const safe = defuseCell(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The audit log as CSV, as the table reads it: when, what (the sentence), who, from, status, and each change before → after. */
export function auditCsv(entries: AuditEntry[], who: (entry: AuditEntry) => string): string {
  const header = ['When', 'What', 'Who', 'From', 'Status', 'Changes', 'Attempts'];
  const rows = entries.map((entry) => [
    formatDateTime(entry.at),
    auditSentence(entry),
    who(entry),
    entry.address,
    String(entry.status),
    entry.diff
      .map(
        (c) =>
          `${fieldLabel(entry.resource, c.field)}: ${valueText(c.field, c.before)} → ${valueText(c.field, c.after)}`,
      )
      .join('; '),
    String(entry.count),
  ]);
  return `${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
