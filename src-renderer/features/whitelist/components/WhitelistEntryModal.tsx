import { useEffect, useState } from 'react';
import { AddressInput } from '../../../components/AddressInput.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { useWhitelistTerms, WhitelistTermsFields } from '../../../components/WhitelistTermsFields.tsx';
import { endsAt } from '../../../lib/ends-at.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { notifySaved } from '../../../lib/notify-saved.ts';
import type { WhitelistEntry } from '../api/fail2ban-settings.ts';
import { useSaveWhitelistEntries } from '../api/save-whitelist-entries.ts';

const FIELDS = ['value', 'comment', 'until'] as const;

/** The server names an entry's fields `whitelistEntries[3].value`: under the dialog's own fields they read as `value: …`. */
const ownField = (error: unknown) =>
  error instanceof ApiError
    ? new ApiError(
        error.status,
        error.messages.map((m) => m.replace(/^whitelistEntries(\[\d+\]|\.\d+)\./, '')),
      )
    : error;

/** "Add to whitelist": an address or network, why, and for how long (or for good). Saving lifts the bans it covers. */
export function WhitelistEntryModal({
  opened,
  onClose,
  entries,
}: {
  opened: boolean;
  onClose: () => void;
  entries: WhitelistEntry[];
}) {
  const save = useSaveWhitelistEntries();
  const [value, setValue] = useState('');
  const terms = useWhitelistTerms(Infinity);
  useEffect(() => {
    if (!opened) return;
    setValue('');
    terms.reset();
    save.reset();
  }, [opened]);
  const errors = fieldErrors(ownField(save.error), FIELDS);

  const submit = () => {
    const until = endsAt(terms.seconds);
    save.mutate(
      [
        ...entries.filter((e) => e.value !== value.trim()),
        { value: value.trim(), comment: terms.comment.trim(), until },
      ],
      {
        onSuccess: ({ notices }) => {
          notifySaved(
            {
              title: 'Whitelisted',
              message: `${value.trim()} is never banned${until ? ' until the end you chose' : ''}.`,
            },
            notices,
            'Still blocked elsewhere',
          );
          onClose();
        },
      },
    );
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Add to whitelist"
      onSubmit={submit}
      submitLabel="Add to whitelist"
      loading={save.isPending}
      errors={errors.other}
    >
      <AddressInput
        consequence="Its active bans are lifted."
        placeholder="192.0.2.7 or 10.20.0.0/16"
        value={value}
        onChange={setValue}
        error={errors.byField.value}
      />
      <WhitelistTermsFields
        terms={terms}
        errors={errors.byField}
        permanentHint="Permanent keeps it until you remove it."
      />
    </FormModal>
  );
}
