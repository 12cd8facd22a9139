import { Button } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { useState } from 'react';
import { FilterSelect } from '../../../components/FilterSelect.tsx';
import { ServerPagedTable } from '../../../components/ServerPagedTable.tsx';
import { useServerPaging } from '../../../lib/use-server-paging.ts';
import { localInputInstant } from '../../../lib/format.ts';
import { auditCsv } from '../api/audit-csv.ts';
import { getAllAuditEntries, useAuditLog, type AuditChannel, type AuditKind } from '../api/get-audit-log.ts';
import { actorText, AUDIT_COLUMNS, auditRowLabel, CHANNELS, KINDS } from './audit-columns.tsx';
import { DateTimeField } from './DateTimeField.tsx';

const PAGE_SIZE = 25;

/**
 * The audit log, newest first, searched, filtered and paged on the server: every change through any
 * channel with who made it, from where and the changed fields, plus rejected API keys and failed logins.
 */
export function AuditLogTable() {
  const paging = useServerPaging(PAGE_SIZE, {
    kind: '' as '' | AuditKind,
    channel: '' as '' | AuditChannel,
    // Local times as typed (24-hour, the browser's zone), sent as ISO instants once readable.
    from: '',
    to: '',
  });
  const { kind, channel, from, to } = paging.filters;
  const since = localInputInstant(from);
  const until = localInputInstant(to);
  const [exporting, setExporting] = useState(false);
  const filter = { search: paging.debounced, kind, channel, resource: '', since, until };
  const log = useAuditLog({ ...filter, limit: PAGE_SIZE, offset: paging.offset });
  const exportCsv = async () => {
    setExporting(true);
    try {
      const entries = await getAllAuditEntries(filter);
      const url = URL.createObjectURL(new Blob([auditCsv(entries, actorText)], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `audit-log-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } finally {
      setExporting(false);
    }
  };

  return (
    <ServerPagedTable
      label="Audit log"
      noun="audit log entries"
      query={log}
      row={{ label: auditRowLabel, testId: 'audit-row' }}
      minWidth={960}
      paging={paging}
      searchPlaceholder="User, key, resource, address, field"
      searchWidth={280}
      filters={
        <>
          <FilterSelect label="Kind" every="Every kind" options={KINDS} {...paging.bind('kind')} width={170} />
          <FilterSelect
            label="Channel"
            every="Every channel"
            options={CHANNELS}
            {...paging.bind('channel')}
            width={170}
          />
          <DateTimeField label="From" {...paging.bind('from')} />
          <DateTimeField
            label="To"
            {...paging.bind('to')}
            error={since && until && since > until ? 'The end is before the start.' : undefined}
          />
          <Button
            variant="default"
            leftSection={<IconFileSpreadsheet size={16} />}
            loading={exporting}
            onClick={() => void exportCsv()}
          >
            Export CSV
          </Button>
        </>
      }
      columns={AUDIT_COLUMNS}
      empty={
        paging.filtered
          ? { title: 'No entry matches the filters', hint: 'Change the search, the kind, the channel or the dates.' }
          : {
              title: 'Nothing recorded yet',
              hint:
                'Every change through the console, a token, a session or an API key is recorded here, with ' +
                'rejected keys and failed logins.',
            }
      }
    />
  );
}
