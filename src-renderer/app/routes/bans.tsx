import { PageHeader } from '../../components/PageHeader.tsx';
import { BansTable } from '../../features/bans/components/BansTable.tsx';

export function BansRoute() {
  return (
    <>
      <PageHeader title="Bans" description="Addresses banned automatically after repeated failures. Bouncers block them until the time runs out or you unban them." />
      <BansTable />
    </>
  );
}
