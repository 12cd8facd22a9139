import { Code, Text } from '@mantine/core';
import { DataTable } from '../../../components/DataTable.tsx';
import { useProviderStatuses, type ProviderStatus } from '../api/get-provider-statuses.ts';
import { PeerStateBadge } from './PeerStateBadge.tsx';
import { textOrDash as text } from './text-or-dash.ts';

/** The SIP trunks with their live state. */
export function ProvidersTable() {
  const providers = useProviderStatuses();
  return (
    <DataTable<ProviderStatus>
      label="Providers"
      noun="providers"
      frame={{ card: false, minWidth: 560 }}
      query={providers}
      row={{ testId: 'provider-row' }}
      search={{
        label: 'Search providers',
        placeholder: 'Search name, user, host, state',
        text: (p) => `${p.id} ${p.description ?? ''} ${p.username ?? ''} ${p.host ?? ''} ${p.state}`,
      }}
      columns={[
        {
          header: 'Provider',
          card: 'title',
          render: (p) => (
            <>
              <Text size="sm" fw={600}>
                {text(p.description || p.id)}
              </Text>
              {p.description ? (
                <Text size="xs" c="dimmed" ff="monospace" fw={400}>
                  {p.id}
                </Text>
              ) : null}
            </>
          ),
        },
        { header: 'State', render: (p) => <PeerStateBadge state={p.state} /> },
        { header: 'User', mono: true, render: (p) => text(p.username) },
        { header: 'Host', mono: true, render: (p) => text(p.host) },
      ]}
      empty={{
        title: 'No providers',
        hint: (
          <>
            SIP trunks are created through the API (<Code>providers</Code>).
          </>
        ),
      }}
    />
  );
}
