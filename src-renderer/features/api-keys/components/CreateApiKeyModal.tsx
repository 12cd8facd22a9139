import { Button, Checkbox, Group, Modal, Stack } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { ModalForm } from '../../../components/FormModal.tsx';
import { RadioChoice } from '../../../components/RadioChoice.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useCreateApiKey } from '../api/create-api-key.ts';
import { BOUNCER_PRESET, type BouncerSetup, type IssuedKey, type ServerCertificate } from '../api/types.ts';
import { CustomPaths, pathProblem, type PathRow } from './CustomPathsField.tsx';
import { IssuedKeyPanel } from './IssuedKeyPanel.tsx';
import { BACKENDS, PRESETS, type Preset } from './key-choices.ts';
import { capBody, KeyCapFields, NO_CAP, type CapChoice } from './KeyCapFields.tsx';
import { KeyDescriptionField } from './KeyDescriptionField.tsx';
import { RouterFeedPanel } from './RouterFeedPanel.tsx';

/** The network-filter picker, supplied by the app so this feature does not depend on another. */
export type FilterField = (props: { value: string; onChange: (value: string) => void; error?: string }) => ReactNode;

const FIELDS = [
  'description',
  'allowed_paths',
  'networkfilterid',
  'full_permissions',
  'expand_ranges',
  'entry_cap',
  'cap_preset',
  'aggregate',
] as const;

/** Creates a key (bouncer preset or custom paths, bound to a network filter), then shows it once. */
export function CreateApiKeyModal({
  opened,
  onClose,
  filterField,
  bouncerApiUrls,
  feedUrlsFor,
  certificate,
}: {
  opened: boolean;
  onClose: () => void;
  filterField: FilterField;
  bouncerApiUrls: string[];
  feedUrlsFor: (networkfilterid: string) => string[];
  certificate?: ServerCertificate | null;
}) {
  const create = useCreateApiKey();
  const [description, setDescription] = useState('');
  const [preset, setPreset] = useState<Preset>('bouncer');
  const [backend, setBackend] = useState<BouncerSetup>('iptables');
  const [rows, setRows] = useState<PathRow[]>([{ path: '/api/v3/', permission: 'read' }]);
  const [fullPermissions, setFullPermissions] = useState(false);
  const [filterId, setFilterId] = useState('');
  const [cap, setCap] = useState<CapChoice>(NO_CAP);
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
    setCap(NO_CAP);
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
        bouncer_setup: preset === 'bouncer' ? backend : preset === 'router' ? 'router-feed' : null,
        ...(preset === 'custom' ? {} : capBody(cap)),
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
          {preset === 'router' && (
            <RouterFeedPanel apiKey={issued.key} bouncerApiUrls={feedUrlsFor(issued.networkfilterid)} />
          )}
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
          {preset !== 'custom' && <KeyCapFields value={cap} onChange={setCap} errors={errors.byField} />}
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
