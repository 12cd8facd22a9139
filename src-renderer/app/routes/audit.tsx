import { PageHeader } from '../../components/PageHeader.tsx';
import { AuditLogTable } from '../../features/audit/components/AuditLogTable.tsx';

export function AuditRoute() {
  return (
    <>
      <PageHeader
        title="Audit log"
        description={
          'Every change through any channel: who made it, from where, and the fields it changed ' +
          '(secrets are never shown). Rejected API keys and failed logins too.'
        }
      />
      <AuditLogTable />
    </>
  );
}
