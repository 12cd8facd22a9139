import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowLeft, IconBan, IconDownload, IconHistory, IconUpload } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { paths } from '../../config/paths.ts';
import { AddressLookupCard } from '../../features/bans/components/AddressLookupCard.tsx';
import { BanLogTable } from '../../features/bans/components/BanLogTable.tsx';
import { BansTable } from '../../features/bans/components/BansTable.tsx';
import { ExportBansModal } from '../../features/bans/components/ExportBansModal.tsx';
import { ImportBansModal } from '../../features/bans/components/ImportBansModal.tsx';
import { linkProps } from '../../lib/router.ts';

export function BansRoute() {
  const [banOpened, banDialog] = useDisclosure(false);
  const [importOpened, importDialog] = useDisclosure(false);
  const [exportOpened, exportDialog] = useDisclosure(false);
  return (
    <>
      <PageHeader
        title="Bans"
        description="Addresses banned after repeated failures, or by you. Bouncers block them until the time runs out or you unban them."
        actions={
          <>
            <Button
              variant="default"
              component="a"
              leftSection={<IconHistory size={16} />}
              {...linkProps(paths.banHistory)}
            >
              Ban history
            </Button>
            <Button variant="default" leftSection={<IconUpload size={16} />} onClick={importDialog.open}>
              Import…
            </Button>
            <Button variant="default" leftSection={<IconDownload size={16} />} onClick={exportDialog.open}>
              Export…
            </Button>
            <Button color="red" leftSection={<IconBan size={16} />} onClick={banDialog.open}>
              Ban an address
            </Button>
          </>
        }
      />
      <AddressLookupCard />
      <BansTable banOpened={banOpened} onBanClose={banDialog.close} />
      <ImportBansModal opened={importOpened} onClose={importDialog.close} />
      <ExportBansModal opened={exportOpened} onClose={exportDialog.close} />
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
