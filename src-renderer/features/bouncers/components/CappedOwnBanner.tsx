import { Anchor, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ProblemAlert } from '../../../components/ProblemAlert.tsx';
import { linkProps } from '../../../lib/router.ts';
import { useBouncerStatus } from '../api/get-bouncer-status.ts';
import { ownLeftOut } from './cap-text.ts';

/**
 * The Dashboard's warning that a capped key leaves out bans of this PBX's own (intrusion or manual
 * bans): those addresses reach the server, not that device. Other sites' bans left out are expected.
 */
export function CappedOwnBanner({ keysHref }: { keysHref: string }) {
  const status = useBouncerStatus();
  const short = (status.data?.bouncers ?? []).filter((bouncer) => ownLeftOut(bouncer) > 0);
  if (short.length === 0) return null;
  return (
    <ProblemAlert
      icon={<IconAlertTriangle size={20} aria-hidden />}
      title={
        short.length === 1
          ? `${short[0]!.description} is too small for this PBX's own bans`
          : `${short.length} capped keys are too small for this PBX's own bans`
      }
      mb="lg"
      role="alert"
      data-testid="capped-own-banner"
    >
      <Text size="sm">
        {short
          .map((b) => `${b.description}: ${b.cap!.text} (${ownLeftOut(b).toLocaleString('en')} of this PBX's own)`)
          .join('; ')}
        . Those addresses are not blocked on that device. Raise its device limit, or turn on merging into networks.{' '}
        <Anchor {...linkProps(keysHref)} size="sm" underline="always" fw={600} c="inherit">
          Open the API keys
        </Anchor>
      </Text>
    </ProblemAlert>
  );
}
