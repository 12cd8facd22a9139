import { Alert, Anchor, Button, Group, Paper, Select, Stack, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useNetworkFilters } from '../api/get-filters.ts';
import { useSaveNetworkFilter } from '../api/save-filter.ts';

export interface NetworkFilterSelectProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

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
  const options = [
    { value: 'none', label: 'Any address (not recommended for bouncers)' },
    { value: 'localhost', label: 'This computer only (localhost)' },
    ...(filters.data ?? []).map((f) => ({ value: String(f.id), label: f.description ? `${f.permit} — ${f.description}` : f.permit })),
  ];
  const createErrors = fieldErrors(save.error, ['permit', 'network', 'subnet'] as const);
  const ipError = (touched && !hostIp.trim() ? 'Enter the bouncer host’s IP address.' : null) ?? createErrors.byField.permit ?? createErrors.byField.network ?? createErrors.byField.subnet ?? createErrors.other[0];

  const create = () => {
    setTouched(true);
    const ip = hostIp.trim();
    if (!ip) return;
    save.mutate(
      {
        input: {
          permit: ip,
          deny: '0.0.0.0/0',
          description: `Bouncer host ${ip}`,
          newer_block_ip: false,
          local_network: false,
          currentRules: { SIP: true, WEB: true, AMI: true, IAX: true },
        },
      },
      {
        onSuccess: (created) => {
          if (created && created.id !== undefined) onChange(String(created.id));
          setCreating(false);
          setHostIp('');
          setTouched(false);
        },
      },
    );
  };

  return (
    <Stack gap={6}>
      <Select
        label="Allowed source"
        description="The key is accepted only from addresses in this filter; any other source gets 403."
        data={options}
        value={value}
        onChange={(v) => onChange(v ?? 'none')}
        allowDeselect={false}
        error={error}
        disabled={filters.isPending}
        comboboxProps={{ withinPortal: true }}
      />
      {!creating ? (
        <Anchor component="button" type="button" size="sm" onClick={() => setCreating(true)} style={{ alignSelf: 'flex-start' }}>
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
