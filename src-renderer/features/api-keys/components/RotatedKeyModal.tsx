import { Button, Group, Modal, Stack } from '@mantine/core';
import type { BouncerSetup, IssuedKey, ServerCertificate } from '../api/types.ts';
import { IssuedKeyPanel } from './IssuedKeyPanel.tsx';
import { RouterFeedPanel } from './RouterFeedPanel.tsx';

/** A rotated key's new value, with what the configuration shown needs to know of the key. */
export interface ReissuedKey {
  issued: IssuedKey;
  forBouncer: boolean;
  setup: BouncerSetup;
  localOnly: boolean;
}

/** The new value of a rotated key, shown once with the configuration of the bouncer it was made for. */
export function RotatedKeyModal({
  reissued,
  onClose,
  bouncerApiUrls,
  feedUrlsFor,
  certificate,
}: {
  reissued: ReissuedKey | null;
  onClose: () => void;
  bouncerApiUrls: string[];
  feedUrlsFor: (networkfilterid: string) => string[];
  certificate?: ServerCertificate | null;
}) {
  return (
    <Modal
      opened={reissued !== null}
      onClose={onClose}
      title="Key rotated: new value"
      size="lg"
      centered
      closeOnClickOutside={false}
    >
      {reissued && (
        <Stack>
          <IssuedKeyPanel
            apiKey={reissued.issued.key}
            bouncerApiUrls={bouncerApiUrls}
            forBouncer={reissued.forBouncer}
            backend={reissued.setup === 'nftables' ? 'nftables' : 'iptables'}
            client={reissued.setup === 'custom-bouncer' ? 'custom' : 'firewall'}
            localOnly={reissued.localOnly}
            certificate={certificate}
          />
          {reissued.setup === 'router-feed' && (
            <RouterFeedPanel
              apiKey={reissued.issued.key}
              bouncerApiUrls={feedUrlsFor(reissued.issued.networkfilterid)}
            />
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied it</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
