import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { DurationInput } from './DurationInput.tsx';

/** A temporary exemption lasts from a minute to a year; "Permanent" is for good. */
const MIN_SECONDS = 60;
const MAX_SECONDS = 365 * 86_400;

/** The comment and time limit of a whitelist entry being written; `reset` clears them when the dialog opens. */
export function useWhitelistTerms(defaultSeconds: number) {
  const [comment, setComment] = useState('');
  const [seconds, setSeconds] = useState(defaultSeconds);
  const reset = () => {
    setComment('');
    setSeconds(defaultSeconds);
  };
  return { comment, setComment, seconds, setSeconds, reset };
}

/** Why an address is whitelisted and for how long: the fields of every dialog that whitelists one. */
export function WhitelistTermsFields({
  terms,
  errors,
  permanentHint,
  focusComment,
}: {
  terms: ReturnType<typeof useWhitelistTerms>;
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
        value={terms.comment}
        onChange={(e) => terms.setComment(e.currentTarget.value)}
        error={errors.comment}
        data-autofocus={focusComment || undefined}
      />
      <DurationInput
        label="Whitelisted for"
        description={permanentHint}
        value={terms.seconds}
        onChange={terms.setSeconds}
        min={MIN_SECONDS}
        max={MAX_SECONDS}
        units={['min', 'h', 'd']}
        allowPermanent
        error={errors.until}
      />
    </>
  );
}
