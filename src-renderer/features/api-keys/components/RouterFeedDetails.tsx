import { Alert, Code, Text } from '@mantine/core';
import type { ApiKey } from '../api/types.ts';
import { KEY_PLACEHOLDER, RouterFeedPanel } from './RouterFeedPanel.tsx';

/**
 * A router feed key's URL and configuration, shown again in Details: built from the key's binding
 * (feedUrlsFor), with a placeholder where the key goes, since the key is never read back.
 */
export function RouterFeedDetails({
  apiKey,
  feedUrlsFor,
}: {
  apiKey: ApiKey;
  feedUrlsFor: (networkfilterid: string) => string[];
}) {
  return (
    <>
      <Text size="sm" fw={600}>
        Router feed set-up
      </Text>
      <Alert color="gray" variant="light" p="xs">
        <Text size="xs">
          Replace <Code>{KEY_PLACEHOLDER}</Code> with the key ({apiKey.key_display}), shown once when it was made. Lost
          it? Rotate the key for a new value.
        </Text>
      </Alert>
      <RouterFeedPanel
        apiKey={KEY_PLACEHOLDER}
        bouncerApiUrls={feedUrlsFor(apiKey.networkfilterid)}
        intervalMinutes={apiKey.feed_interval_minutes}
      />
    </>
  );
}
