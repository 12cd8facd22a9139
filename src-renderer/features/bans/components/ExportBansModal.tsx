import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ChoiceSelect, type Choice } from '../../../components/ChoiceSelect.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { RadioChoice } from '../../../components/RadioChoice.tsx';
import { exportBans } from '../api/export-bans.ts';
import { BAN_LIST_FORMATS, type BanListFormat } from '../api/import-bans.ts';

type Source = 'manual' | 'all';
const SOURCES: readonly Choice<Source>[] = [
  { value: 'manual', label: 'Bans made by operators (manual and imported)' },
  { value: 'all', label: 'Every ban, automatic bans too (they import back as manual bans)' },
];

const EXTENSION: Record<BanListFormat, string> = { values: 'txt', opnsense: 'txt', csv: 'csv', json: 'json' };

/** Saves text as a file the browser downloads. */
function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "Export bans": the bans in force as a file another PBX imports back (json and csv keep durations and reasons). */
export function ExportBansModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [format, setFormat] = useState<BanListFormat>('json');
  const [source, setSource] = useState<Source>('manual');
  const [busy, setBusy] = useState(false);

  const submit = () => {
    setBusy(true);
    exportBans(format, source)
      .then((answer) => {
        download(
          `pbx-bans-${new Date().toISOString().slice(0, 10)}.${EXTENSION[format]}`,
          answer.content,
          format === 'json' ? 'application/json' : 'text/plain',
        );
        notifications.show({ color: 'teal', title: 'Bans exported', message: `${answer.count} bans.` });
        onClose();
      })
      .catch(() => undefined) // the API client has shown the error
      .finally(() => setBusy(false));
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Export bans"
      onSubmit={submit}
      submitLabel="Download"
      loading={busy}
    >
      <ChoiceSelect
        label="Format"
        description="JSON and CSV keep each ban's time left, reason and services; the other two keep the addresses."
        options={BAN_LIST_FORMATS}
        value={format}
        onChange={setFormat}
      />
      <RadioChoice label="Bans" options={SOURCES} value={source} onChange={setSource} />
    </FormModal>
  );
}
