import { Alert, Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconShare } from '@tabler/icons-react';
import { formatDateTime, plural } from '../../../lib/format.ts';
import { crowdsecLinkSettings } from '../api/crowdsec-link-settings.ts';
import { useCrowdsecLinkStatus } from '../api/get-crowdsec-link-status.ts';
import { useShareActiveBans, useShareCount } from '../api/share-active-bans.ts';

/** How far the last share of the bans in force got: "120 of 316 sent". */
function ShareProgress() {
  const { data } = useCrowdsecLinkStatus();
  const share = data?.share;
  if (!share) return null;
  const text =
    share.waiting > 0
      ? `Sharing the bans in force: ${share.sent} of ${plural(share.queued, 'ban', 'bans')} sent, ${share.waiting} waiting.`
      : `The ${plural(share.queued, 'ban', 'bans')} in force shared on ${formatDateTime(share.at)} have all been sent.`;
  return (
    <Text size="sm" data-testid="crowdsec-share-progress">
      {text}
    </Text>
  );
}

/**
 * Linking (or switching pushing on) shares bans made from then on; the bans already in force would
 * stay on this PBX only. Once the link pushes, this says how many and offers to share them now.
 */
export function ShareActiveBansOffer() {
  const { data: settings } = crowdsecLinkSettings.useSettings();
  const pushing = settings?.enabled === true && settings.pushEnabled === true;
  const count = useShareCount(pushing);
  const share = useShareActiveBans();
  const waiting = pushing ? (count.data?.queued ?? 0) : 0;
  const shareNow = () =>
    share.mutate(undefined, {
      onSuccess: (done) =>
        notifications.show({
          color: 'teal',
          title: 'Bans in force shared',
          message: `${plural(done.queued, 'ban is', 'bans are')} on the way to the LAPI; the progress shows below.`,
        }),
    });
  return (
    <Stack gap="xs">
      {waiting > 0 && (
        <Alert color="blue" variant="light" title={`${plural(waiting, 'ban', 'bans')} in force not shared yet`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm" data-testid="crowdsec-share-offer">
              Bans made from now on go to the LAPI as they happen. The {plural(waiting, 'ban', 'bans')} already in force
              stay on this PBX only unless you share them now.
            </Text>
            <Button size="sm" leftSection={<IconShare size={16} />} loading={share.isPending} onClick={shareNow}>
              Share {plural(waiting, 'ban', 'bans')} now
            </Button>
          </Stack>
        </Alert>
      )}
      <ShareProgress />
    </Stack>
  );
}
