import { ActionIcon, Button, Checkbox, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import type { Choice } from '../../../components/ChoiceSelect.tsx';
import { ModalForm } from '../../../components/FormModal.tsx';
import { RadioChoice } from '../../../components/RadioChoice.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { CUSTOM_CACHE_RETENTION, CUSTOM_UPDATE_FREQUENCY, EXPAND_LIMIT } from '../model/bouncer-config.ts';
import { useCreateApiKey } from '../api/create-api-key.ts';
import {
  BOUNCER_PRESET,
  type BouncerSetup,
  type IssuedKey,
  type Permission,
  type ServerCertificate,
} from '../api/types.ts';
import { IssuedKeyPanel } from './IssuedKeyPanel.tsx';
import { KeyDescriptionField } from './KeyDescriptionField.tsx';
import { RouterFeedPanel } from './RouterFeedPanel.tsx';

/** The network-filter picker, supplied by the app so this feature does not depend on another. */
export type FilterField = (props: { value: string; onChange: (value: string) => void; error?: string }) => ReactNode;

type Preset = 'bouncer' | 'router' | 'custom';
interface PathRow {
  path: string;
  permission: Permission;
}

const FIELDS = ['description', 'allowed_paths', 'networkfilterid', 'full_permissions', 'expand_ranges'] as const;

/** The server's rule for an allowed path: starts with "/", no spaces. */
const pathProblem = (path: string) =>
  /^\/\S*$/.test(path.trim()) ? null : 'Start with "/" and use no spaces, e.g. /api/v3/extensions.';

function CustomPaths({
  rows,
  onChange,
  error,
  showProblems,
}: {
  rows: PathRow[];
  onChange: (rows: PathRow[]) => void;
  error?: string;
  showProblems: boolean;
}) {
  return (
    <Stack gap="xs" role="group" aria-label="Allowed paths">
      {rows.map((row, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            aria-label={`Path ${index + 1}`}
            placeholder="/api/v3/extensions"
            value={row.path}
            onChange={(e) => onChange(rows.map((r, i) => (i === index ? { ...r, path: e.currentTarget.value } : r)))}
            error={showProblems && row.path.trim() ? pathProblem(row.path) : null}
            style={{ flex: 1 }}
          />
          <SegmentedControl
            aria-label={`Permission for path ${index + 1}`}
            value={row.permission}
            onChange={(v) => onChange(rows.map((r, i) => (i === index ? { ...r, permission: v as Permission } : r)))}
            data={[
              { value: 'read', label: 'Read' },
              { value: 'write', label: 'Write' },
            ]}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Remove path ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Button
        variant="subtle"
        size="xs"
        leftSection={<IconPlus size={14} />}
        onClick={() => onChange([...rows, { path: '/api/v3/', permission: 'read' }])}
        style={{ alignSelf: 'flex-start' }}
      >
        Add a path
      </Button>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/** The bouncer and its firewall backend, chosen before the key exists: nftables keys get ranges expanded. */
const BACKENDS: readonly Choice<BouncerSetup>[] = [
  {
    value: 'iptables',
    label: 'iptables + ipset (recommended)',
    description: 'Blocked networks of any size are enforced.',
  },
  {
    value: 'nftables',
    label: 'nftables',
    description:
      `The bouncer's nftables mode cannot hold networks: this key receives blocked networks up to ` +
      `${EXPAND_LIMIT.ipv4} (IPv4) and ${EXPAND_LIMIT.ipv6} (IPv6) expanded into single ` +
      `addresses. Wider networks are only enforced in iptables mode.`,
  },
  {
    value: 'custom-bouncer',
    label: 'crowdsec-custom-bouncer (your script)',
    description:
      `Runs a script once per ban and unban. Polls every ${CUSTOM_UPDATE_FREQUENCY} and remembers ` +
      `applied bans for ${CUSTOM_CACHE_RETENTION}.`,
  },
];

/** What the key may reach: the bouncer's export, the router feed, or paths chosen one by one. */
const PRESETS: readonly Choice<Preset>[] = [
  {
    value: 'bouncer',
    label: 'Firewall bouncer: read-only firewall export',
    description: 'Only /api/v3/firewall-bouncer (decision stream and whitelist), read-only.',
  },
  {
    value: 'router',
    label: 'Router feed: blocklist for routers and firewalls',
    description:
      'Read-only blocklist feed for MikroTik, pfSense/OPNsense URL tables, F5 or Juniper (no ' +
      'CrowdSec software needed).',
  },
  { value: 'custom', label: 'Custom', description: 'Choose the API paths the key may read or write.' },
];

/** Creates a key (bouncer preset or custom paths, bound to a network filter), then shows it once. */
export function CreateApiKeyModal({
  opened,
  onClose,
  filterField,
  bouncerApiUrls,
  certificate,
}: {
  opened: boolean;
  onClose: () => void;
  filterField: FilterField;
  bouncerApiUrls: string[];
  certificate?: ServerCertificate | null;
}) {
  const create = useCreateApiKey();
  const [description, setDescription] = useState('');
  const [preset, setPreset] = useState<Preset>('bouncer');
  const [backend, setBackend] = useState<BouncerSetup>('iptables');
  const [rows, setRows] = useState<PathRow[]>([{ path: '/api/v3/', permission: 'read' }]);
  const [fullPermissions, setFullPermissions] = useState(false);
  const [filterId, setFilterId] = useState('');
  const [touched, setTouched] = useState(false);
  const [issued, setIssued] = useState<IssuedKey | null>(null);

  useEffect(() => {
    if (!opened) return;
    setDescription('');
    setPreset('bouncer');
    setBackend('iptables');
    setRows([{ path: '/api/v3/', permission: 'read' }]);
    setFullPermissions(false);
    setFilterId('');
    setTouched(false);
    setIssued(null);
    create.reset();
  }, [opened]);

  const errors = fieldErrors(create.error, FIELDS);
  const filterError =
    (touched && !filterId
      ? 'Choose where the key will be used from: a filter for the bouncer host’s address, this computer, or (on purpose) any address.'
      : null) ?? errors.byField.networkfilterid;

  const submit = () => {
    setTouched(true);
    if (!description.trim() || !filterId) return;
    if (preset === 'custom' && !fullPermissions && rows.some((r) => r.path.trim() && pathProblem(r.path))) return;
    const allowed_paths =
      preset !== 'custom'
        ? BOUNCER_PRESET
        : Object.fromEntries(rows.filter((r) => r.path.trim()).map((r) => [r.path.trim(), r.permission]));
    create.mutate(
      {
        description: description.trim(),
        allowed_paths,
        full_permissions: preset === 'custom' && fullPermissions,
        networkfilterid: filterId,
        expand_ranges: preset === 'bouncer' && backend === 'nftables',
        // Remembered so Rotate and Details offer this bouncer's configuration.
        bouncer_setup: preset === 'bouncer' ? backend : null,
      },
      { onSuccess: setIssued },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={issued ? 'API key created' : 'New API key'}
      size="lg"
      centered
      closeOnClickOutside={!issued}
      transitionProps={{ onExited: () => setIssued(null) }}
    >
      {issued ? (
        <Stack>
          <IssuedKeyPanel
            apiKey={issued.key}
            bouncerApiUrls={bouncerApiUrls}
            localOnly={filterId === 'localhost'}
            forBouncer={preset === 'bouncer'}
            backend={backend === 'nftables' ? 'nftables' : 'iptables'}
            client={backend === 'custom-bouncer' ? 'custom' : 'firewall'}
            certificate={certificate}
          />
          {preset === 'router' && <RouterFeedPanel apiKey={issued.key} bouncerApiUrls={bouncerApiUrls} />}
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied it</Button>
          </Group>
        </Stack>
      ) : (
        <ModalForm
          onSubmit={submit}
          onClose={onClose}
          submitLabel="Create key"
          loading={create.isPending}
          errors={errors.other}
        >
          <KeyDescriptionField
            value={description}
            onChange={setDescription}
            touched={touched}
            errors={errors}
            placeholder="Bouncer on fw1.example.net"
          />
          <RadioChoice label="Access" options={PRESETS} value={preset} onChange={setPreset} />
          {preset === 'bouncer' && (
            <Stack gap="xs" pl="md">
              <RadioChoice
                label="Bouncer on the bouncer host"
                options={BACKENDS}
                value={backend}
                onChange={setBackend}
                error={errors.byField.expand_ranges}
              />
            </Stack>
          )}
          {preset === 'custom' && (
            <Stack gap="xs" pl="md">
              <Checkbox
                label="Full permissions (every path, read and write)"
                checked={fullPermissions}
                onChange={(e) => setFullPermissions(e.currentTarget.checked)}
              />
              {!fullPermissions && (
                <CustomPaths
                  rows={rows}
                  onChange={setRows}
                  error={errors.byField.allowed_paths}
                  showProblems={touched}
                />
              )}
            </Stack>
          )}
          {filterField({ value: filterId, onChange: setFilterId, error: filterError })}
        </ModalForm>
      )}
    </Modal>
  );
}
