import { TextInput } from '@mantine/core';
import { DurationInput } from './DurationInput.tsx';

/** A temporary exemption lasts from a minute to a year; "Permanent" is for good. */
const MIN_SECONDS = 60;
const MAX_SECONDS = 365 * 86_400;

/** Why an address is whitelisted and for how long: the fields of every dialog that whitelists one. */
export function WhitelistTermsFields({
  comment,
  onComment,
  seconds,
  onSeconds,
  errors,
  permanentHint,
  focusComment,
}: {
  comment: string;
  onComment: (comment: string) => void;
  seconds: number;
  onSeconds: (seconds: number) => void;
  errors: { comment?: string; until?: string };
  /** What Permanent means where the dialog is. */
  permanentHint: string;
  /** The comment is the dialog's first field (the address is already known). */
  focusComment?: boolean;
}) {
  return (
    <>
      <TextInput
        label="Comment"
        placeholder="Customer office during the migration"
        maxLength={200}
        value={comment}
        onChange={(e) => onComment(e.currentTarget.value)}
        error={errors.comment}
        data-autofocus={focusComment || undefined}
      />
      <DurationInput
        label="Whitelisted for"
        description={permanentHint}
        value={seconds}
        onChange={onSeconds}
        min={MIN_SECONDS}
        max={MAX_SECONDS}
        units={['min', 'h', 'd']}
        allowPermanent
        error={errors.until}
      />
    </>
  );
}
