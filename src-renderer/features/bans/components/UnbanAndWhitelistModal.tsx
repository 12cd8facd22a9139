import { Text } from '@mantine/core';
import { useEffect } from 'react';
import { FormModal } from '../../../components/FormModal.tsx';
import { useWhitelistTerms, WhitelistTermsFields } from '../../../components/WhitelistTermsFields.tsx';
import { endsAt } from '../../../lib/ends-at.ts';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { formatExactDuration } from '../../../lib/format.ts';
import { notifySaved } from '../../../lib/notify-saved.ts';
import { useUnbanAndWhitelist } from '../api/unban-and-whitelist.ts';

const FIELDS = ['ip', 'comment', 'until'] as const;

/** "Unban and whitelist": lifts the bans of a banned row and exempts it, for a chosen time or for good. */
export function UnbanAndWhitelistModal({ ip, onClose }: { ip: string | null; onClose: () => void }) {
  const action = useUnbanAndWhitelist();
  const terms = useWhitelistTerms(86_400);
  useEffect(() => {
    if (ip === null) return;
    terms.reset();
    action.reset();
  }, [ip]);
  const errors = fieldErrors(action.error, FIELDS);

  const submit = () => {
    if (ip === null) return;
    const until = endsAt(terms.seconds);
    action.mutate(
      { ip, comment: terms.comment.trim(), until },
      {
        onSuccess: (answer) => {
          const how = until === null ? 'for good' : `for ${formatExactDuration(terms.seconds)}`;
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
    <FormModal
      opened={ip !== null}
      onClose={onClose}
      title={ip === null ? '' : `Unban and whitelist ${ip}?`}
      onSubmit={submit}
      submitLabel="Unban and whitelist"
      loading={action.isPending}
      errors={[...(errors.byField.ip ? [errors.byField.ip] : []), ...errors.other]}
    >
      <Text size="sm">Every ban of {ip} is lifted now, and its failures are not counted while it is whitelisted.</Text>
      <WhitelistTermsFields
        terms={terms}
        errors={errors.byField}
        permanentHint="Permanent keeps it until you remove it on the Whitelist page."
        endFirst
      />
    </FormModal>
  );
}
