import { Alert, Badge, Button, Card, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch, IconShieldCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime, formatDuration } from '../../../lib/format.ts';
import { categoryLabel } from '../api/categories.ts';
import { useAddressLookup, type AddressLookup, type CoveringDecision, type Protection } from '../api/lookup-address.ts';
import { deliveryKeys } from './DeliveryCell.tsx';
import { LookupHistory } from './LookupHistory.tsx';

/** Where a decision comes from, as the screens that made it name it. */
export function decisionOrigin(decision: CoveringDecision): string {
  if (decision.source === 'upstream') {
    const of = decision.scope === 'Range' ? ` of the range ${decision.value}` : '';
    return `Upstream CrowdSec decision${of} (${decision.origin}: ${decision.scenario})`;
  }
  if (decision.source === 'filter')
    return `Network filter '${decision.filter?.description || `#${decision.filter?.id ?? '?'}`}'`;
  const range = decision.scope === 'Range' ? ` of the range ${decision.value}` : '';
  if (decision.ban?.category === 'manual') return `Manual ban${range}`;
  return `Intrusion ban (${categoryLabel(decision.ban?.category ?? '')})${range}`;
}

/** "never ends" for filter entries, "permanent" for a ban without an end, else the time left. */
function timeLeft(decision: CoveringDecision): string {
  if (decision.secondsLeft !== null) return `${formatDuration(decision.secondsLeft)} left`;
  return decision.source === 'filter' ? 'never ends (until the filter changes)' : 'permanent';
}

/** "sent to 2 of 3 bouncers: fw1, fw2". */
function sentTo({ delivery }: CoveringDecision): string {
  if (delivery.of === 0) return 'no bouncer or feed key: enforced by this server only';
  const to = `sent to ${delivery.served} of ${delivery.of} ${delivery.of === 1 ? 'bouncer' : 'bouncers'}`;
  const sent = delivery.served === 0 ? `${to} yet` : `${to}: ${deliveryKeys(delivery)}`;
  return [sent, ...delivery.missing.map((m) => m.why)].join('; ');
}

export function protectionText(protection: Protection): string {
  if (protection.kind === 'whitelist') {
    const comment = protection.comment ? `: ${protection.comment}` : '';
    const end = protection.until
      ? ` (until ${formatDateTime(protection.until)})`
      : protection.comment !== undefined
        ? ' (for good)'
        : '';
    return `Whitelist ${protection.value}${comment}${end}`;
  }
  return `Trusted network '${protection.filter?.description || `#${protection.filter?.id ?? '?'}`}' ${protection.value}`;
}

function DecisionItem({ decision }: { decision: CoveringDecision }) {
  return (
    <List.Item data-testid="lookup-decision">
      <Text size="sm" fw={600}>
        {decisionOrigin(decision)}
        {decision.source === 'filter' && (
          <Text span ff="monospace" fw={400}>
            {' '}
            {decision.value}
          </Text>
        )}
      </Text>
      <Text size="sm">
        {timeLeft(decision)} · <span data-testid="lookup-delivery">{sentTo(decision)}</span>
      </Text>
      {decision.upstream && (
        <Text size="xs" c="dimmed" data-testid="lookup-upstream">
          Not liftable here: the decision belongs to the LAPI and would come back at its next poll. Lift it there (
          {`cscli decisions delete ${decision.scope === 'Range' ? '--range' : '--ip'} ${decision.value}`}), or whitelist
          the address here (the whitelist wins).
        </Text>
      )}
      {decision.ban?.reason && (
        <Text size="xs" c="dimmed">
          {decision.ban.reason}
          {decision.ban.bannedBy && ` (by ${decision.ban.bannedBy})`}
        </Text>
      )}
    </List.Item>
  );
}

function LookupAnswer({ answer }: { answer: AddressLookup }) {
  const nothing = answer.decisions.length === 0;
  return (
    <Stack gap="sm" data-testid="lookup-answer" aria-live="polite">
      {answer.loopback && (
        <Alert color="blue" variant="light" title={`${answer.address} is never blocked`}>
          <Text size="sm">{answer.loopback}</Text>
        </Alert>
      )}
      {nothing ? (
        <Text size="sm" fw={600}>
          Nothing blocks {answer.address}
        </Text>
      ) : (
        <>
          <Group gap="xs">
            <Badge color="red" variant="filled">
              Blocked
            </Badge>
            <Text size="sm" fw={600}>
              {answer.decisions.length === 1 ? 'One decision blocks' : `${answer.decisions.length} decisions block`}{' '}
              {answer.address}:
            </Text>
          </Group>
          <List spacing="xs" aria-label={`Decisions that block ${answer.address}`}>
            {answer.decisions.map((decision) => (
              <DecisionItem
                key={`${decision.source}-${decision.value}-${decision.scenario}-${decision.filter?.id ?? ''}`}
                decision={decision}
              />
            ))}
          </List>
        </>
      )}
      {answer.protections.length > 0 && (
        <Stack gap={4}>
          <Group gap={6}>
            <IconShieldCheck size={16} aria-hidden />
            <Text size="sm" fw={600}>
              Protected from bans by:
            </Text>
          </Group>
          <List spacing={2} aria-label={`What protects ${answer.address}`}>
            {answer.protections.map((protection) => (
              <List.Item
                key={`${protection.kind}-${protection.value}-${protection.filter?.id ?? ''}`}
                data-testid="lookup-protection"
              >
                <Text size="sm">{protectionText(protection)}</Text>
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
      <LookupHistory answer={answer} />
    </Stack>
  );
}

/** "Why is this address blocked?": every decision that covers an address, and what protects it. */
export function AddressLookupCard() {
  const [typed, setTyped] = useState('');
  const [asked, setAsked] = useState('');
  const lookup = useAddressLookup(asked);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ip = typed.trim();
    if (ip === asked) void lookup.refetch();
    else setAsked(ip);
  };
  const refused = lookup.error instanceof ApiError && lookup.error.status === 400 ? lookup.error.message : null;
  const fieldError = asked === '' && typed === '' ? null : refused;
  return (
    <Card withBorder padding="md" radius="md" mb="lg" component="section" aria-labelledby="address-lookup-title">
      <Title order={2} size="h4" id="address-lookup-title" mb="xs">
        Why is this address blocked?
      </Title>
      <form onSubmit={submit} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label="Address"
            placeholder="e.g. 203.0.113.9"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            error={fieldError}
            style={{ flex: '1 1 14rem', minWidth: 0 }}
            autoComplete="off"
            spellCheck={false}
          />
          <Button
            type="submit"
            leftSection={<IconSearch size={16} />}
            loading={lookup.isFetching}
            mt={{ base: 0, xs: 25 }}
            disabled={typed.trim() === ''}
          >
            Look up
          </Button>
        </Group>
      </form>
      {lookup.error && !refused && (
        <Text size="sm" c="red" mt="sm" role="alert">
          {lookup.error.message}
        </Text>
      )}
      {lookup.data && !refused && asked !== '' && (
        <Stack mt="md">
          <LookupAnswer answer={lookup.data} />
        </Stack>
      )}
    </Card>
  );
}
