import { Anchor, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { linkProps } from '../../../lib/router.ts';
import { useBouncerStatus } from '../api/get-bouncer-status.ts';
import { ProblemAlert } from '../../../components/ProblemAlert.tsx';

/**
 * The top-of-dashboard warning that bans are listed but reach no firewall: bans exist and no key is
 * "served" (a bouncer polled within 30 s, a router feed fetched within three of its intervals). The bans count comes from
 * the dashboard route, which composes the bans feature.
 */
export function EnforcementBanner({ activeBans, keysHref }: { activeBans: number; keysHref: string }) {
  const status = useBouncerStatus();
  if (!status.data || activeBans === 0) return null;
  if (status.data.bouncers.some((bouncer) => bouncer.state === 'served')) return null;
  const refused = status.data.bouncers.filter((bouncer) => bouncer.state === 'refused').length;
  return (
    <ProblemAlert
      icon={<IconAlertTriangle size={20} aria-hidden />}
      title={`${activeBans === 1 ? '1 ban is' : `${activeBans} bans are`} not being enforced: no bouncer or router feed is fetching them`}
      mb="lg"
      role="alert"
      data-testid="enforcement-banner"
    >
      <Text size="sm">
        {status.data.bouncers.length === 0
          ? 'No API key is set up for a firewall bouncer yet, so the bans listed here stop nothing beyond this server.'
          : refused > 0
            ? `${refused === 1 ? 'One bouncer is' : `${refused} bouncers are`} refused (see Bouncers ` +
              `below): fix its key, or install a new one.`
            : 'Check that the bouncer service runs on the firewall host and reaches this server.'}{' '}
        <Anchor {...linkProps(keysHref)} size="sm" underline="always" fw={600} c="inherit">
          Open the bouncer keys
        </Anchor>
      </Text>
    </ProblemAlert>
  );
}
