import { Button, Card, Group, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { OptionalText } from '../../../components/OptionalText.tsx';
import { formatDateTime, formatDuration, toMillis } from '../../../lib/format.ts';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useFail2ban, useUpdateFail2ban, type WhitelistEntry } from '../api/fail2ban-settings.ts';
import { useSaveWhitelistEntries } from '../api/save-whitelist-entries.ts';
import { WhitelistEntryModal } from './WhitelistEntryModal.tsx';

/** When an entry ends, and how long is left ("Never" for good). */
function EndCell({ entry, now }: { entry: WhitelistEntry; now: number }) {
  const end = toMillis(entry.until);
  if (end === null) return <Text size="sm">Never</Text>;
  return (
    <>
      <Text size="sm">{formatDateTime(end)}</Text>
      <Text size="xs" c="dimmed">
        {end > now ? `in ${formatDuration((end - now) / 1000)}` : 'ended'}
      </Text>
    </>
  );
}

const splitList = (text: string | undefined) => (text ?? '').split(/[\s,]+/).filter(Boolean);

/**
 * The one whitelist: every address never banned, each with the reason it is trusted and, if temporary, its end
 * (CrowdSec's allowlists). The plain list (fail2ban's `whitelist`) is shown as the same entries without comment or
 * end. Adding one lifts the bans it covers; at its end it disappears on its own.
 */
export function WhitelistEntriesCard() {
  const settings = useFail2ban();
  const save = useSaveWhitelistEntries();
  const savePlain = useUpdateFail2ban();
  const removing = useDialogTarget<WhitelistEntry>();
  const [adding, setAdding] = useState(false);
  const now = useNow();
  const entries = (settings.data?.whitelistEntries ?? []).filter((e) => (toMillis(e.until) ?? Infinity) > now);
  const plain = splitList(settings.data?.whitelist).filter((v) => !entries.some((e) => e.value === v));
  const rows: WhitelistEntry[] = [...entries, ...plain.map((value) => ({ value, comment: '', until: null }))];
  const remove = (e: WhitelistEntry) =>
    plain.includes(e.value)
      ? savePlain.mutateAsync({ whitelist: plain.filter((v) => v !== e.value).join(' ') })
      : save.mutateAsync(entries.filter((x) => x.value !== e.value));
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="whitelist-entries-title">
      <Group justify="space-between" mb={4} wrap="wrap">
        <Title order={2} size="h4" id="whitelist-entries-title">
          Whitelist
        </Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
          Add to whitelist
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Each with the reason it is trusted and, if it is temporary, when it ends. Adding one lifts the active bans it
        covers.
      </Text>
      <DataTable
        label="Whitelist entries"
        noun="entries"
        frame={{ card: false, minWidth: 560 }}
        query={settings}
        rows={rows}
        row={{
          key: (e) => e.value,
          testId: 'whitelist-entry',
          actions: (e) => [
            { label: 'Remove', icon: <IconTrash size={14} />, color: 'red', onClick: () => removing.open(e) },
          ],
        }}
        search={{
          label: 'Search whitelist entries',
          placeholder: 'Search address or comment',
          text: (e) => `${e.value} ${e.comment}`,
          // A clash elsewhere links here with ?entry=<address>: the table opens on that entry.
          initial: new URLSearchParams(window.location.search).get('entry') ?? '',
        }}
        columns={[
          { header: 'Address or network', mono: true, card: 'title', render: (e) => e.value },
          { header: 'Comment', render: (e) => <OptionalText value={e.comment} /> },
          { header: 'Ends', render: (e) => <EndCell entry={e} now={now} /> },
        ]}
        empty={{
          title: 'No whitelist entries',
          hint: 'Add an address with a comment, for good or for a while (a customer office during a migration).',
        }}
      />
      <WhitelistEntryModal opened={adding} onClose={() => setAdding(false)} entries={entries} />
      <ConfirmDialog
        dialog={removing}
        title={(e) => `Remove ${e.value} from the whitelist?`}
        message={(e) =>
          `${e.value}${e.comment ? ` (${e.comment})` : ''} can be banned again: its failures count from now on.`
        }
        confirmLabel="Remove"
        loading={save.isPending || savePlain.isPending}
        onConfirm={(e) =>
          remove(e).then(() =>
            notifications.show({ color: 'teal', title: 'Removed', message: `${e.value} is no longer whitelisted.` }),
          )
        }
      />
    </Card>
  );
}
