import { Checkbox, Group, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { SettingsForm } from '../../../components/SettingsForm.tsx';
import { SecretInput } from '../../../components/SecretInput.tsx';
import { useSettingsForm } from '../../../lib/use-settings-form.ts';
import { crowdsecLinkSettings, type CrowdsecLinkSettings, type SharedCategory } from '../api/crowdsec-link-settings.ts';
import { CrowdsecLinkStatus } from './CrowdsecLinkStatus.tsx';
import { ShareActiveBansOffer } from './ShareActiveBansOffer.tsx';

const FIELDS = [
  'enabled',
  'url',
  'siteName',
  'pushEnabled',
  'machineLogin',
  'machinePassword',
  'shareCategories',
  'shareManual',
  'shareFilters',
  'pullEnabled',
  'bouncerKey',
  'republish',
  'pullIntervalSeconds',
] as const;
const CATEGORIES: { value: SharedCategory; label: string }[] = [
  { value: 'sip', label: 'SIP' },
  { value: 'iax', label: 'IAX' },
  { value: 'ami', label: 'AMI' },
  { value: 'http', label: 'Web' },
];

/** Share bans with other sites through a CrowdSec LAPI: where it is, what goes up, what comes down. */
export function CrowdsecLinkForm() {
  const form = useSettingsForm(crowdsecLinkSettings, {
    // Secrets are never read back: their fields start empty, and an empty one keeps the stored value.
    toValues: (d): CrowdsecLinkSettings => ({
      enabled: Boolean(d.enabled),
      url: d.url ?? '',
      siteName: d.siteName ?? '',
      pushEnabled: d.pushEnabled !== false,
      machineLogin: d.machineLogin ?? '',
      machinePassword: '',
      shareCategories: d.shareCategories ?? ['sip', 'http', 'ami', 'iax'],
      shareManual: d.shareManual !== false,
      shareFilters: Boolean(d.shareFilters),
      pullEnabled: Boolean(d.pullEnabled),
      bouncerKey: '',
      republish: d.republish !== false,
      pullIntervalSeconds: Number(d.pullIntervalSeconds) || 10,
    }),
    // The server refuses an empty credential (422): one left empty is simply not sent. A pasted URL
    // often carries a space at an end, which the server refuses (422): none is sent.
    toInput: ({ url, machineLogin, machinePassword, bouncerKey, ...rest }) => ({
      ...rest,
      url: url.trim(),
      ...(machineLogin ? { machineLogin } : {}),
      ...(machinePassword ? { machinePassword } : {}),
      ...(bouncerKey ? { bouncerKey } : {}),
    }),
    fields: FIELDS,
    saved: { title: 'CrowdSec link saved', message: 'It applies now: the status above shows when the LAPI answers.' },
  });
  const { errors, set, field, textField, switchField } = form;
  return (
    <Stack maw={720}>
      <CrowdsecLinkStatus />
      <ShareActiveBansOffer />
      <SettingsForm form={form} label="CrowdSec link settings" name="CrowdSec link" submitLabel="Save CrowdSec link">
        {(values) => (
          <>
            <Switch label="Share bans through a CrowdSec LAPI" {...switchField('enabled')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="LAPI URL" placeholder="http://192.0.2.10:8080/" {...textField('url')} />
              <TextInput
                label="This site's name"
                description="Shown in the alerts this PBX pushes; empty uses the host name."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                {...textField('siteName')}
              />
            </SimpleGrid>
            <Switch label="Push this PBX's bans (as a CrowdSec machine)" {...switchField('pushEnabled')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Machine login"
                autoComplete="off"
                disabled={!values.pushEnabled}
                {...textField('machineLogin')}
              />
              <SecretInput
                label="Machine password"
                description="Leave empty to keep the stored password."
                disabled={!values.pushEnabled}
                {...textField('machinePassword')}
              />
            </SimpleGrid>
            <div>
              <Text size="sm" fw={500} id="crowdsec-link-shared">
                Bans to share
              </Text>
              <Group gap="md" mt={4} role="group" aria-labelledby="crowdsec-link-shared">
                {CATEGORIES.map((c) => (
                  <Checkbox
                    key={c.value}
                    label={c.label}
                    disabled={!values.pushEnabled}
                    checked={values.shareCategories.includes(c.value)}
                    onChange={(e) =>
                      set(
                        'shareCategories',
                        e.currentTarget.checked
                          ? [...values.shareCategories, c.value]
                          : values.shareCategories.filter((v) => v !== c.value),
                      )
                    }
                  />
                ))}
                <Checkbox label="Manual bans" disabled={!values.pushEnabled} {...switchField('shareManual')} />
                <Checkbox
                  label="Network filter blocks"
                  disabled={!values.pushEnabled}
                  {...switchField('shareFilters')}
                />
              </Group>
              {errors.byField.shareCategories && (
                <Text size="xs" c="red">
                  {errors.byField.shareCategories}
                </Text>
              )}
            </div>
            <Switch
              label="Pull the LAPI's decisions (as a bouncer) and enforce them here"
              {...switchField('pullEnabled')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <SecretInput
                label="Bouncer key"
                description="From cscli bouncers add; leave empty to keep the stored key."
                disabled={!values.pullEnabled}
                {...textField('bouncerKey')}
              />
              <BoundedNumberInput
                label="Poll every (seconds)"
                min={1}
                max={3600}
                disabled={!values.pullEnabled}
                {...field('pullIntervalSeconds')}
              />
            </SimpleGrid>
            <Switch
              label="Also publish pulled decisions to this PBX's bouncers and feeds"
              description={
                'With their upstream origin (crowdsec, cscli, CAPI…). Off: they are enforced on this server ' +
                'only. The whitelist, trusted networks and loopback always win.'
              }
              disabled={!values.pullEnabled}
              {...switchField('republish')}
            />
          </>
        )}
      </SettingsForm>
    </Stack>
  );
}
