import { Alert, Anchor, Button, Checkbox, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useNetworkFilters } from '../api/get-filters.ts';
import { quickFilter, useSaveNetworkFilter } from '../api/save-filter.ts';

export interface NetworkFilterSelectProps {
  /** '' until the operator chooses: a key is never bound to "any address" by default. */
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/** What "Any address" means, said where it is chosen. */
export const ANY_ADDRESS_LABEL = 'Any address: the key works wherever it leaks to (not recommended)';

/**
 * Picks the network filter an API key is bound to; when the bouncer host has no filter yet, one is
 * created inline for its address.
 */
export function NetworkFilterSelect({ value, onChange, error }: NetworkFilterSelectProps) {
  const filters = useNetworkFilters();
  const save = useSaveNetworkFilter();
  const [creating, setCreating] = useState(false);
  const [hostIp, setHostIp] = useState('');
  const [touched, setTouched] = useState(false);
  const [grantServices, setGrantServices] = useState(false);
  // One address first; "any address" last, as a deliberate choice.
  const options = [
    { value: 'localhost', label: 'This computer only (localhost)' },
    ...(filters.data ?? []).map((f) => ({
      value: String(f.id),
      label: f.description ? `${f.permit} — ${f.description}` : f.permit,
    })),
    { value: 'none', label: ANY_ADDRESS_LABEL },
  ];
  const createErrors = fieldErrors(save.error, ['permit', 'network', 'subnet'] as const);
  const ipError =
    (touched && !hostIp.trim() ? 'Enter the bouncer host’s IP address.' : null) ??
    createErrors.byField.permit ??
    createErrors.byField.network ??
    createErrors.byField.subnet ??
    createErrors.other[0];

  const create = () => {
    setTouched(true);
    const ip = hostIp.trim();
    if (!ip) return;
    save.mutate(
      {
        // The key needs only its own binding: the host is granted no service unless the operator asks.
        input: quickFilter(
          {
            permit: ip,
            deny: '0.0.0.0/0',
            description: grantServices ? `Bouncer host ${ip}` : `Bouncer host ${ip} (firewall export only)`,
          },
          grantServices,
        ),
      },
      {
        onSuccess: (created) => {
          if (created && created.id !== undefined) onChange(String(created.id));
          setCreating(false);
          setHostIp('');
          setTouched(false);
          setGrantServices(false);
        },
      },
    );
  };

  return (
    <Stack gap={6}>
      <Select
        label="Allowed source"
        description="The key is accepted only from addresses in this filter; any other source gets 403."
        placeholder="Choose where the key will be used from"
        required
        data={options}
        value={value || null}
        onChange={(v) => onChange(v ?? '')}
        allowDeselect={false}
        error={error}
        disabled={filters.isPending}
      />
      {!creating ? (
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => setCreating(true)}
          style={{ alignSelf: 'flex-start' }}
        >
          <Group gap={4}>
            <IconPlus size={14} aria-hidden /> New filter for the bouncer host
          </Group>
        </Anchor>
      ) : (
        <Paper withBorder p="sm" radius="sm" role="group" aria-label="New filter for the bouncer host">
          <Stack gap="xs">
            <TextInput
              label="Bouncer host IP"
              placeholder="192.0.2.10"
              value={hostIp}
              onChange={(e) => {
                if (save.error) save.reset();
                setHostIp(e.currentTarget.value);
              }}
              error={ipError}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  create();
                }
              }}
              autoFocus
            />
            <Text size="xs" c="dimmed" data-testid="bouncer-filter-effect">
              {grantServices
                ? 'The filter admits the key from this address and also allows SIP, the web console, AMI and IAX from it.'
                : 'The filter admits the key from this address only. It grants the host nothing else: SIP, ' +
                  'the web console, AMI and IAX from it stay blocked, which is all a firewall box needs.'}
            </Text>
            <Checkbox
              size="xs"
              label="Also allow SIP, the web console, AMI and IAX from this host"
              description={
                'Only for a host that is also a phone, a trunk or an admin workstation: it could then ' +
                'register, sign in and use the manager interface.'
              }
              checked={grantServices}
              onChange={(e) => setGrantServices(e.currentTarget.checked)}
            />
            <Group gap="xs">
              <Button size="xs" onClick={create} loading={save.isPending}>
                Create filter
              </Button>
              <Button size="xs" variant="default" onClick={() => setCreating(false)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      {filters.isError && (
        <Alert color="red" variant="light">
          The network filters could not be loaded; only the first two choices are available.
        </Alert>
      )}
    </Stack>
  );
}
