import { Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { AddressInput } from '../../../components/AddressInput.tsx';
import { DurationInput } from '../../../components/DurationInput.tsx';
import { FormError } from '../../../components/FormError.tsx';
import { ModalFooter } from '../../../components/ModalFooter.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { notifySaved } from '../../../lib/notify-saved.ts';
import type { WhitelistEntry } from '../api/fail2ban-settings.ts';
import { useSaveWhitelistEntries } from '../api/save-whitelist-entries.ts';

const FIELDS = ['value', 'comment', 'until'] as const;
/** A temporary exemption lasts from a minute to a year; "Permanent" is for good. */
const MIN_SECONDS = 60;
const MAX_SECONDS = 365 * 86_400;

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
  const [comment, setComment] = useState('');
  const [seconds, setSeconds] = useState(Infinity);
  useEffect(() => {
    if (!opened) return;
    setValue('');
    setComment('');
    setSeconds(Infinity);
    save.reset();
  }, [opened]);
  const errors = fieldErrors(ownField(save.error), FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const until =
      seconds === Infinity
        ? null
        : Number.isNaN(seconds)
          ? 'no end given'
          : new Date(Date.now() + seconds * 1000).toISOString();
    save.mutate(
      [...entries.filter((e) => e.value !== value.trim()), { value: value.trim(), comment: comment.trim(), until }],
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
    <Modal opened={opened} onClose={onClose} title="Add to whitelist" centered size="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <AddressInput
            description="An IPv4 or IPv6 address, or a network in CIDR form. Its active bans are lifted."
            placeholder="192.0.2.7 or 10.20.0.0/16"
            value={value}
            onChange={setValue}
            error={errors.byField.value}
          />
          <TextInput
            label="Comment"
            placeholder="Customer office during the migration"
            maxLength={200}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={errors.byField.comment}
          />
          <DurationInput
            label="Whitelisted for"
            description="Permanent keeps it until you remove it."
            value={seconds}
            onChange={setSeconds}
            min={MIN_SECONDS}
            max={MAX_SECONDS}
            units={['min', 'h', 'd']}
            allowPermanent
            error={errors.byField.until}
          />
          <FormError messages={errors.other} />
          <ModalFooter onCancel={onClose} submitLabel="Add to whitelist" loading={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
