import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useId, useState } from 'react';
import { DurationInput } from './DurationInput.tsx';

/** A temporary exemption lasts from a minute to a year; "Permanent" is for good. */
const MIN_SECONDS = 60;
const MAX_SECONDS = 365 * 86_400;

/** The ends a technician picks most, one tap each. */
const QUICK_ENDS = [
  { label: '1 hour', seconds: 3600 },
  { label: '1 day', seconds: 86_400 },
  { label: '1 week', seconds: 7 * 86_400 },
  { label: 'No end', seconds: Infinity },
] as const;

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

/** How long the entry lasts: a tap on a usual end, or any duration typed. */
function EndFields({
  terms,
  error,
  permanentHint,
}: {
  terms: ReturnType<typeof useWhitelistTerms>;
  error?: string;
  permanentHint: string;
}) {
  const id = useId();
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id={id}>
        Ends
      </Text>
      <Group gap={6} role="group" aria-labelledby={id}>
        {QUICK_ENDS.map((end) => (
          <Button
            key={end.label}
            size="compact-sm"
            variant={terms.seconds === end.seconds ? 'filled' : 'default'}
            aria-pressed={terms.seconds === end.seconds}
            onClick={() => terms.setSeconds(end.seconds)}
          >
            {end.label}
          </Button>
        ))}
      </Group>
      <DurationInput
        label="Whitelisted for"
        description={permanentHint}
        value={terms.seconds}
        onChange={terms.setSeconds}
        min={MIN_SECONDS}
        max={MAX_SECONDS}
        units={['min', 'h', 'd']}
        allowPermanent
        error={error}
      />
    </Stack>
  );
}

/** Why an address is whitelisted and for how long: the fields of every dialog that whitelists one. */
export function WhitelistTermsFields({
  terms,
  errors,
  permanentHint,
  endFirst,
}: {
  terms: ReturnType<typeof useWhitelistTerms>;
  errors: { comment?: string; until?: string };
  /** What Permanent means where the dialog is. */
  permanentHint: string;
  /** The end comes first (whitelisting a banned address: how long is the question). */
  endFirst?: boolean;
}) {
  const comment = (
    <TextInput
      label="Comment"
      placeholder="Customer office during the migration"
      maxLength={200}
      value={terms.comment}
      onChange={(e) => terms.setComment(e.currentTarget.value)}
      error={errors.comment}
    />
  );
  const end = <EndFields terms={terms} error={errors.until} permanentHint={permanentHint} />;
  return endFirst ? (
    <>
      {end}
      {comment}
    </>
  ) : (
    <>
      {comment}
      {end}
    </>
  );
}
