import { Alert, Text } from '@mantine/core';
import { IconPhoneOff } from '@tabler/icons-react';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * The server's 409 to a ban that would cut off registered phones (firewall:banIp without
 * `confirmCutOff`), as the technician reads it: which addresses and phones, without the API's hint.
 */
export function cutOffMessage(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  return error.messages.join(' ').replace(/\s*Send confirmCutOff: true to \w+ anyway\.?/, '');
}

/** Shown in the ban dialog after a 409: the phones the ban would cut off; submitting again confirms. */
export function CutOffWarning({ message }: { message: string }) {
  return (
    <Alert color="orange" variant="light" icon={<IconPhoneOff size={18} aria-hidden />} title="Registered phones here">
      <Text size="sm">{message}</Text>
      <Text size="sm" mt={4} fw={600}>
        Ban anyway to cut them off; otherwise fix the failing phone or account instead.
      </Text>
    </Alert>
  );
}
