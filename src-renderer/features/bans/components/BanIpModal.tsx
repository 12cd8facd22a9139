import { Checkbox, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { AddressInput } from '../../../components/AddressInput.tsx';
import { DurationInput } from '../../../components/DurationInput.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { serverMessage } from '../../../components/ServerMessage.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { formatExactDuration } from '../../../lib/format.ts';
import { useBanIp } from '../api/ban-ip.ts';
import { BAN_SERVICES, type BanService } from '../api/categories.ts';
import { CutOffWarning, cutOffMessage } from './CutOffWarning.tsx';

const FIELDS = ['ip', 'duration', 'reason', 'services'] as const;

/** The server's bounds for a manual ban (firewall:banIp): 1 minute to 10 years, or permanent. */
const MIN_SECONDS = 60;
const MAX_SECONDS = 10 * 365 * 86_400;
const DEFAULT_SECONDS = 86_400;

const SERVICE_LABELS: Record<BanService, string> = { SIP: 'SIP', WEB: 'Web (console and API)', AMI: 'AMI', IAX: 'IAX' };

/** "Ban an address": an address or CIDR, for a duration or for good, from every service or some. */
export function BanIpModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const ban = useBanIp();
  const [ip, setIp] = useState('');
  const [seconds, setSeconds] = useState(DEFAULT_SECONDS);
  const [reason, setReason] = useState('');
  const [services, setServices] = useState<string[]>([...BAN_SERVICES]);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setIp('');
    setSeconds(DEFAULT_SECONDS);
    setReason('');
    setServices([...BAN_SERVICES]);
    setTouched(false);
    ban.reset();
  }, [opened]);

  // A 409 names the registered phones the ban would cut off: submitting again confirms it.
  const cutOff = cutOffMessage(ban.error);
  const errors = fieldErrors(cutOff ? null : ban.error, FIELDS);
  const ipError =
    (touched && !ip.trim() ? 'Enter an address (192.0.2.7) or a network (192.0.2.0/24).' : null) ?? errors.byField.ip;
  const servicesError =
    (touched && services.length === 0 ? 'Tick at least one service.' : null) ?? errors.byField.services;

  const submit = () => {
    setTouched(true);
    if (!ip.trim() || services.length === 0) return;
    const permanent = seconds === Infinity;
    ban.mutate(
      {
        ip: ip.trim(),
        // An empty amount goes as typed (never as null, which the server reads as permanent):
        // the server says what is wrong under the field.
        duration: permanent ? 'permanent' : Number.isNaN(seconds) ? '' : seconds,
        reason: reason.trim() || undefined,
        // Every service ticked is the server's default (absent), so later services are covered too.
        services: services.length === BAN_SERVICES.length ? undefined : (services as BanService[]),
        confirmCutOff: cutOff ? true : undefined,
      },
      {
        onSuccess: (answer) => {
          const what = answer?.ip ?? ip.trim();
          notifications.show({
            color: 'teal',
            title: 'Banned',
            message: permanent
              ? `${what} is banned until you lift the ban.`
              : `${what} is banned for ${formatExactDuration(seconds)}.`,
          });
          onClose();
        },
      },
    );
  };

  // Anything typed or changed: Esc then asks before dropping it.
  const dirty =
    ip.trim() !== '' || reason.trim() !== '' || seconds !== DEFAULT_SECONDS || services.length !== BAN_SERVICES.length;

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      dirty={dirty}
      title="Ban an address"
      onSubmit={submit}
      submitLabel={cutOff ? 'Ban anyway' : 'Ban'}
      loading={ban.isPending}
      color="red"
      errors={errors.other}
    >
      <AddressInput
        placeholder="192.0.2.7 or 192.0.2.0/24"
        value={ip}
        onChange={(value) => {
          setIp(value);
          // Another address: the confirmation was for the one before.
          if (cutOff) ban.reset();
        }}
        error={serverMessage(ipError)}
      />
      {cutOff && <CutOffWarning message={cutOff} />}
      <DurationInput
        label="Duration"
        value={seconds}
        onChange={setSeconds}
        min={MIN_SECONDS}
        max={MAX_SECONDS}
        units={['min', 'h', 'd']}
        allowPermanent
        error={errors.byField.duration}
      />
      <TextInput
        label="Reason (optional)"
        placeholder="Scanner seen on SIP"
        maxLength={200}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        error={errors.byField.reason}
      />
      <Checkbox.Group
        label="Refused on"
        description="This server's own services that refuse it. Bouncers block it everywhere."
        value={services}
        onChange={setServices}
        error={servicesError}
      >
        <Group gap="md" mt={6}>
          {BAN_SERVICES.map((service) => (
            <Checkbox key={service} value={service} label={SERVICE_LABELS[service]} />
          ))}
        </Group>
      </Checkbox.Group>
    </FormModal>
  );
}
