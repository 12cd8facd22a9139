import { Badge, Group, Text } from '@mantine/core';
import { DataTable } from '../../../components/DataTable.tsx';
import { formatAgo } from '../../../lib/format.ts';
import { usePhoneProtection, type ProtectedAddress } from '../api/get-phone-protection.ts';

type Phone = ProtectedAddress['phones'][number];

/** `101 registered 2 h ago`, `205 left 3 min ago`: one phone at an address. */
function PhoneBadge({ phone }: { phone: Phone }) {
  const left = phone.endedAt !== null;
  return (
    <Badge variant="light" color={left ? 'gray' : 'teal'} style={{ textTransform: 'none' }}>
      {phone.endpoint} {left ? `left ${formatAgo(phone.endedAt)}` : `registered ${formatAgo(phone.registeredSince)}`}
    </Badge>
  );
}

/**
 * The addresses that host a registered phone now (or did within the grace time): failures from
 * them flag the account, never ban the address, so a stale password does not cut off the office.
 */
export function ProtectedAddressesTable() {
  const protection = usePhoneProtection();
  const data = protection.data;
  return (
    <>
      {data && (
        <Text size="sm" c="dimmed" mb="sm">
          {data.enabled
            ? `Never banned while a phone is registered there, and ${data.lingerMinutes} min after the last one leaves. ` +
              'Failures from these addresses flag the failing account on the Dashboard instead.'
            : 'Protection of registered phones is off (Settings › Ban rules): failures from these addresses ban them.'}
        </Text>
      )}
      <DataTable<ProtectedAddress>
        label="Protected addresses"
        noun="addresses"
        frame={{ card: false, minWidth: 560 }}
        query={protection}
        rows={data?.addresses ?? []}
        row={{ testId: 'protected-address-row', key: (a) => a.address, label: (a) => a.address }}
        search={{
          label: 'Search protected addresses',
          placeholder: 'Search address or extension',
          text: (a) => `${a.address} ${a.phones.map((p) => p.endpoint).join(' ')}`,
        }}
        columns={[
          {
            header: 'Address',
            card: 'title',
            mono: true,
            // An address broken mid-number reads as two.
            render: (a) => <span style={{ whiteSpace: 'nowrap' }}>{a.address}</span>,
          },
          {
            header: 'Phones',
            render: (a) => (
              <Group gap={6}>
                {a.phones.map((phone) => (
                  <PhoneBadge key={phone.endpoint} phone={phone} />
                ))}
              </Group>
            ),
          },
        ]}
        empty={{
          title: 'No registered phones',
          hint: 'Addresses appear here as phones register (read from the Asterisk manager).',
        }}
      />
    </>
  );
}
