import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { DurationInput } from '../../../components/DurationInput.tsx';
import { FormError } from '../../../components/FormError.tsx';
import { ModalFooter } from '../../../components/ModalFooter.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { formatExactDuration } from '../../../lib/format.ts';
import { notifySaved } from '../../../lib/notify-saved.ts';
import { useUnbanAndWhitelist } from '../api/unban-and-whitelist.ts';

const FIELDS = ['ip', 'comment', 'until'] as const;
const MIN_SECONDS = 60;
const MAX_SECONDS = 365 * 86_400;

/** "Unban and whitelist": lifts the bans of a banned row and exempts it, for a chosen time or for good. */
export function UnbanAndWhitelistModal({ ip, onClose }: { ip: string | null; onClose: () => void }) {
  const action = useUnbanAndWhitelist();
  const [comment, setComment] = useState('');
  const [seconds, setSeconds] = useState(86_400);
  useEffect(() => {
    if (ip === null) return;
    setComment('');
    setSeconds(86_400);
    action.reset();
  }, [ip]);
  const errors = fieldErrors(action.error, FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ip === null) return;
    const until =
      seconds === Infinity
        ? null
        : Number.isNaN(seconds)
          ? 'no end given'
          : new Date(Date.now() + seconds * 1000).toISOString();
    action.mutate(
      { ip, comment: comment.trim(), until },
      {
        onSuccess: (answer) => {
          const how = until === null ? 'for good' : `for ${formatExactDuration(seconds)}`;
          notifySaved(
            { title: 'Unbanned and whitelisted', message: `${answer.ip} is whitelisted ${how}.` },
            answer.notices,
            'Still blocked elsewhere',
          );
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      opened={ip !== null}
      onClose={onClose}
      title={ip === null ? '' : `Unban and whitelist ${ip}?`}
      centered
      size="md"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            Every ban of {ip} is lifted now, and its failures are not counted while it is whitelisted.
          </Text>
          <TextInput
            label="Comment"
            placeholder="Customer office during the migration"
            maxLength={200}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={errors.byField.comment}
            data-autofocus
          />
          <DurationInput
            label="Whitelisted for"
            description="Permanent keeps it until you remove it on the Whitelist page."
            value={seconds}
            onChange={setSeconds}
            min={MIN_SECONDS}
            max={MAX_SECONDS}
            units={['min', 'h', 'd']}
            allowPermanent
            error={errors.byField.until}
          />
          <FormError messages={[...(errors.byField.ip ? [errors.byField.ip] : []), ...errors.other]} />
          <ModalFooter onCancel={onClose} submitLabel="Unban and whitelist" loading={action.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
