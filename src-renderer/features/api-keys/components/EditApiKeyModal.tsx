import { Modal, NumberInput, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ModalForm } from '../../../components/FormModal.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { formatLocalInput, parseLocalInput, zoneName } from '../../../lib/format.ts';
import { useUpdateApiKey } from '../api/update-api-key.ts';
import type { ApiKey } from '../api/types.ts';
import type { FilterField } from './CreateApiKeyModal.tsx';
import { capBody, capChoiceOf, KeyCapFields, NO_CAP, type CapChoice } from './KeyCapFields.tsx';
import { KeyDescriptionField } from './KeyDescriptionField.tsx';

const FIELDS = [
  'description',
  'networkfilterid',
  'expires_at',
  'entry_cap',
  'cap_preset',
  'aggregate',
  'feed_interval_minutes',
] as const;

/** Keys that read the firewall export (bouncers, router feeds) have a device limit. */
const readsExport = (key: ApiKey) => Object.keys(key.allowed_paths ?? {}).some((p) => p.includes('firewall-bouncer'));

/** An ISO time as the Expires field shows it: the console's one format, local time, 24-hour. */
export function toLocalInput(iso: string | null | undefined): string {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? '' : formatLocalInput(ms);
}

/** The Expires field as an ISO time; null when empty (never expires), 'unreadable' when it is not a time. */
export function fromLocalInput(value: string): string | null | 'unreadable' {
  if (!value.trim()) return null;
  const ms = parseLocalInput(value);
  return Number.isNaN(ms) ? 'unreadable' : new Date(ms).toISOString();
}

/** Edits a key's description, source binding, expiry and device limit; access and value stay (Rotate replaces the value). */
export function EditApiKeyModal({
  apiKey,
  onClose,
  filterField,
}: {
  apiKey: ApiKey | null;
  onClose: () => void;
  filterField: FilterField;
}) {
  const update = useUpdateApiKey();
  const [description, setDescription] = useState('');
  const [filterId, setFilterId] = useState('none');
  const [expires, setExpires] = useState('');
  const [cap, setCap] = useState<CapChoice>(NO_CAP);
  const [feedMinutes, setFeedMinutes] = useState<number | string>(5);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (!apiKey) return;
    setDescription(apiKey.description);
    setFilterId(apiKey.networkfilterid);
    setExpires(toLocalInput(apiKey.expires_at));
    setCap(capChoiceOf(apiKey));
    setFeedMinutes(apiKey.feed_interval_minutes);
    setTouched(false);
    update.reset();
  }, [apiKey]);

  const errors = fieldErrors(update.error, FIELDS);
  const unchangedExpiry = expires === toLocalInput(apiKey?.expires_at);
  const expiresAt = unchangedExpiry ? (apiKey?.expires_at ?? null) : fromLocalInput(expires);
  const expiryError =
    (touched && expiresAt === 'unreadable'
      ? 'Write it as 2026-12-31 18:00 (24-hour, your local time), or leave it empty.'
      : null) ??
    (touched && expires.trim() && !unchangedExpiry && expiresAt !== null && Date.parse(expiresAt) <= Date.now()
      ? 'Choose a time in the future, or leave it empty for a key that never expires.'
      : null) ??
    errors.byField.expires_at;

  const submit = () => {
    setTouched(true);
    if (!apiKey || !description.trim()) return;
    if (expiresAt === 'unreadable') return;
    if (!unchangedExpiry && expiresAt !== null && Date.parse(expiresAt) <= Date.now()) return;
    update.mutate(
      {
        id: apiKey.id,
        changes: {
          ...{ description: description.trim(), networkfilterid: filterId, expires_at: expiresAt },
          // An empty or partial entry is sent as it is: the server names the field (422), nothing is clamped.
          feed_interval_minutes: feedMinutes as number,
          ...(readsExport(apiKey) ? capBody(cap) : {}),
        },
      },
      { onSuccess: onClose },
    );
  };

  return (
    <Modal
      opened={apiKey !== null}
      onClose={onClose}
      title={apiKey ? `Edit “${apiKey.description}”` : ''}
      size="lg"
      centered
    >
      {apiKey && (
        <ModalForm
          onSubmit={submit}
          onClose={onClose}
          submitLabel="Save changes"
          loading={update.isPending}
          errors={errors.other}
        >
          <KeyDescriptionField value={description} onChange={setDescription} touched={touched} errors={errors} />
          {filterField({ value: filterId, onChange: setFilterId, error: errors.byField.networkfilterid })}
          <TextInput
            label="Expires"
            placeholder="2026-12-31 18:00"
            description={`After this time (24-hour, ${zoneName(new Date())}) the key is refused. Leave it empty for a key that never expires.`}
            value={expires}
            onChange={(e) => setExpires(e.currentTarget.value)}
            error={expiryError}
          />
          {readsExport(apiKey) && <KeyCapFields value={cap} onChange={setCap} errors={errors.byField} />}
          <NumberInput
            label="Router fetches every (minutes)"
            description="For a router feed key: how often the router fetches the feed (the console's MikroTik script: 5). After three of these without a fetch, the Dashboard's Health card reports it."
            min={1}
            max={1440}
            allowDecimal={false}
            clampBehavior="none"
            value={feedMinutes}
            onChange={setFeedMinutes}
            error={errors.byField.feed_interval_minutes}
          />
        </ModalForm>
      )}
    </Modal>
  );
}
