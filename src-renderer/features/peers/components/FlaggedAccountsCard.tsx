import { Anchor, Badge, List, Text } from '@mantine/core';
import { IconUserExclamation } from '@tabler/icons-react';
import { DashboardCard } from '../../../components/DashboardCard.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { formatAgo } from '../../../lib/format.ts';
import { linkProps } from '../../../lib/router.ts';
import { usePhoneProtection } from '../api/get-phone-protection.ts';

/**
 * Dashboard card: accounts that keep failing from an address where other phones are registered.
 * The address is not banned (that would cut off the office): the account needs fixing at the phone.
 */
export function FlaggedAccountsCard({ peersHref }: { peersHref?: string }) {
  const protection = usePhoneProtection();
  const flags = protection.data?.flags ?? [];
  return (
    <DashboardCard
      icon={<IconUserExclamation size={20} aria-hidden />}
      title="Failing accounts behind registered phones"
      badge={
        protection.data && (
          <Badge color={flags.length ? 'orange' : 'teal'} variant="light" data-testid="flagged-count">
            {flags.length ? `${flags.length} flagged` : 'None'}
          </Badge>
        )
      }
    >
      <QueryState query={protection} label="flagged accounts">
        {flags.length === 0 ? (
          <Text size="sm" c="dimmed">
            No account keeps failing from an address with registered phones.
          </Text>
        ) : (
          <List size="sm" spacing={4} data-testid="flagged-accounts">
            {flags.map((flag) => (
              <List.Item key={`${flag.account}|${flag.address}`}>
                {flag.text}: {flag.failures} failures, flagged {formatAgo(flag.at)}. The address is not banned; fix the
                password on that phone or disable the account.
              </List.Item>
            ))}
          </List>
        )}
        {peersHref && protection.data?.enabled && (
          <Anchor {...linkProps(peersHref)} size="sm" underline="always" mt="xs" display="inline-block">
            Protected addresses and their phones
          </Anchor>
        )}
      </QueryState>
    </DashboardCard>
  );
}
