import { Badge, Code, Stack, Text, Tooltip } from '@mantine/core';
import type { DataTableColumn } from '../../../components/DataTable.tsx';
import { formatAgo, formatDateTime } from '../../../lib/format.ts';
import { BOUNCER_PRESET, statusOf, type ApiKey } from '../api/types.ts';
import { KeyStatusBadge } from './KeyStatusBadge.tsx';

/** A key made with the firewall bouncer preset: read access to the bouncer export only. */
export const isBouncerKey = (key: ApiKey) => {
  const paths = key.allowed_paths;
  return (
    Object.keys(paths).length === 1 && paths['/api/v3/firewall-bouncer'] === BOUNCER_PRESET['/api/v3/firewall-bouncer']
  );
};

const hasFullAccess = (key: ApiKey) => key.full_permissions;
/** A key made for a router or firewall fetching the blocklist feed (same read access as a bouncer). */
export const isRouterFeedKey = (key: ApiKey) => key.bouncer_setup === 'router-feed' && isBouncerKey(key);

/** The key's access in words, for the search box. */
export const accessText = (key: ApiKey) =>
  hasFullAccess(key)
    ? 'full access'
    : isRouterFeedKey(key)
      ? 'router feed'
      : isBouncerKey(key)
        ? 'firewall bouncer'
        : Object.keys(key.allowed_paths).join(' ');

/** The key's access: Full access, Firewall bouncer, or each path with its permission. */
function AccessCell({ apiKey }: { apiKey: ApiKey }) {
  // Whole words: a long cell beside them must not squeeze them to "FIREWALL B…".
  if (hasFullAccess(apiKey))
    return (
      <Badge color="red" variant="light" style={{ minWidth: 'max-content' }}>
        Full access
      </Badge>
    );
  if (isRouterFeedKey(apiKey))
    return (
      <Badge color="grape" variant="light" style={{ minWidth: 'max-content' }}>
        Router feed
      </Badge>
    );
  if (isBouncerKey(apiKey))
    return (
      <Badge color="blue" variant="light" style={{ minWidth: 'max-content' }}>
        Firewall bouncer
      </Badge>
    );
  const paths = Object.entries(apiKey.allowed_paths);
  if (paths.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No access
      </Text>
    );
  return (
    <Stack gap={2}>
      {paths.map(([path, permission]) => (
        <Text key={path} size="xs" ff="monospace">
          {path}{' '}
          <Text span c="dimmed" size="xs">
            ({permission})
          </Text>
        </Text>
      ))}
    </Stack>
  );
}

/** The API keys' columns; the status and last use are read at `now`, the source through the filters' names. */
export function apiKeyColumns(now: number, describeFilter: (id: string) => string): DataTableColumn<ApiKey>[] {
  return [
    {
      header: 'Description',
      card: 'title',
      render: (k) => (
        <>
          <Text size="sm" fw={600}>
            {k.description}
          </Text>
          <Text size="xs" c="dimmed" fw={400}>
            Created {formatDateTime(k.created_at)}
          </Text>
        </>
      ),
    },
    { header: 'Status', render: (k) => <KeyStatusBadge status={statusOf(k, now)} /> },
    { header: 'Key', render: (k) => <Code>{k.key_display}</Code> },
    { header: 'Access', render: (k) => <AccessCell apiKey={k} /> },
    {
      header: 'Expires',
      render: (k) => (
        <Text size="sm" c={k.expires_at ? undefined : 'dimmed'} data-testid="api-key-expiry">
          {k.expires_at ? formatDateTime(k.expires_at) : 'Never'}
        </Text>
      ),
    },
    {
      header: 'Allowed source',
      render: (k) => (
        <Text size="sm" c={k.networkfilterid === 'none' ? 'orange' : undefined}>
          {describeFilter(k.networkfilterid)}
        </Text>
      ),
    },
    {
      header: 'Last used',
      render: (k) => (
        <>
          <Tooltip label={formatDateTime(k.last_used_at)} disabled={!k.last_used_at}>
            <Text size="sm" c={k.last_used_at ? undefined : 'dimmed'}>
              {k.last_used_at ? formatAgo(k.last_used_at, now) : 'Never'}
            </Text>
          </Tooltip>
          {k.last_used_ip && (
            <Text size="xs" c="dimmed" ff="monospace">
              from {k.last_used_ip}
            </Text>
          )}
        </>
      ),
    },
  ];
}
