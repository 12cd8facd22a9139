import { Code, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ChoiceSelect } from '../../../components/ChoiceSelect.tsx';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { FEED_FORMATS, feedUrl, mikrotikScheduler, urlTableSteps, type FeedFormat } from '../api/router-feed.ts';

/** Stands for the key in a set-up shown again later: the key itself is never read back. */
export const KEY_PLACEHOLDER = 'YOUR-KEY';

/**
 * The router feed set-up: the feed URL in the chosen format (the key as the Basic password, for
 * devices that cannot send headers), a MikroTik scheduler script, and the pfSense/OPNsense URL
 * Table steps. For a new (or rotated) key with its value; in Details with KEY_PLACEHOLDER.
 */
export function RouterFeedPanel({
  apiKey,
  bouncerApiUrls,
  intervalMinutes,
}: {
  apiKey: string;
  bouncerApiUrls: string[];
  /** The key's feed interval: the script's scheduler fetches that often (5 when the key is new). */
  intervalMinutes?: number;
}) {
  const urls = bouncerApiUrls.length ? bouncerApiUrls : [`${window.location.origin}/pbxcore/api/v3/firewall-bouncer/`];
  const [apiUrl, setApiUrl] = useState(urls[0]!);
  const [format, setFormat] = useState<FeedFormat>('plain_text');
  return (
    <Stack data-testid="router-feed">
      <ChoiceSelect
        label="Address the router reaches this server on"
        options={urls.map((url) => ({ value: url, label: url }))}
        value={apiUrl}
        onChange={setApiUrl}
      />
      <ChoiceSelect label="Feed format" options={FEED_FORMATS} value={format} onChange={setFormat} />
      <div>
        <Text size="sm" fw={600} mb={4}>
          Feed URL
        </Text>
        <CopyBlock value={feedUrl(apiUrl, format, apiKey)} label="feed URL" />
        <Text size="xs" c="dimmed" mt={4}>
          The key is the password in the URL. Devices that can send headers may use <Code>X-Api-Key</Code> instead. An
          unchanged feed answers 304 to <Code>If-None-Match</Code>.
        </Text>
      </div>
      {format === 'mikrotik' && (
        <div>
          <Text size="sm" fw={600} mb={4}>
            MikroTik scheduler script
          </Text>
          <CopyBlock value={mikrotikScheduler(apiUrl, apiKey, intervalMinutes)} label="MikroTik script" block />
          <Text size="xs" c="dimmed" mt={4}>
            Every 5 minutes the router replaces its <Code>pbx-blocklist</Code> address lists with the PBX’s bans; each
            entry expires on its own when its ban does.
          </Text>
        </div>
      )}
      {format === 'plain_text' &&
        urlTableSteps(apiUrl, apiKey).map(({ product, steps }) => (
          <div key={product}>
            <Text size="sm" fw={600} mb={4}>
              {product}: URL Table alias
            </Text>
            <List type="ordered" size="sm" spacing={2}>
              {steps.map((step) => (
                <List.Item key={step} style={{ overflowWrap: 'anywhere' }}>
                  {step}
                </List.Item>
              ))}
            </List>
          </div>
        ))}
    </Stack>
  );
}
