import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowLeft, IconBan, IconHistory } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { paths } from '../../config/paths.ts';
import { BanLogTable } from '../../features/bans/components/BanLogTable.tsx';
import { BansTable } from '../../features/bans/components/BansTable.tsx';
import { linkProps } from '../../lib/router.ts';

export function BansRoute() {
  const [banOpened, banDialog] = useDisclosure(false);
  return (
    <>
      <PageHeader
        title="Bans"
        description="Addresses banned after repeated failures, or by you. Bouncers block them until the time runs out or you unban them."
        actions={
          <>
            <Button variant="default" component="a" leftSection={<IconHistory size={16} />} {...linkProps(paths.banHistory)}>
              Ban history
            </Button>
            <Button color="red" leftSection={<IconBan size={16} />} onClick={banDialog.open}>
              Ban an address
            </Button>
          </>
        }
      />
      <BansTable banOpened={banOpened} onBanClose={banDialog.close} />
    </>
  );
}

export function BanHistoryRoute() {
  return (
    <>
      <PageHeader
        title="Ban history"
        description="Every ban, automatic or manual: when it started, when it ended or will end, who banned it and who lifted it."
        actions={
          <Button variant="default" component="a" leftSection={<IconArrowLeft size={16} />} {...linkProps(paths.bans)}>
            Active bans
          </Button>
        }
      />
      <BanLogTable />
    </>
  );
}
