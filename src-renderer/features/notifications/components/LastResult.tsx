import { Badge, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/format.ts';
import type { Channel } from '../api/channels.ts';

/** The channel's last send: delivered or failed, when, and what the receiver said. */
export function LastResult({ result }: { result: Channel['lastResult'] }) {
  if (!result)
    return (
      <Text size="sm" c="dimmed">
        Nothing sent yet
      </Text>
    );
  return (
    <Stack gap={2} data-testid="channel-last-result">
      <Badge size="sm" color={result.ok ? 'teal' : 'red'} variant="light">
        {result.ok ? 'Delivered' : 'Failed'}
        {result.test ? ' (test)' : ''}
      </Badge>
      <Text size="xs" c="dimmed">
        {formatDateTime(result.at)}
      </Text>
      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
        {result.message}
      </Text>
    </Stack>
  );
}
