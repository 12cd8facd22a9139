import { SimpleGrid } from '@mantine/core';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { DurationInput } from '../../../components/DurationInput.tsx';
import { SettingsForm } from '../../../components/SettingsForm.tsx';
import { useSettingsForm } from '../../../lib/use-settings-form.ts';
import { FAIL2BAN_BOUNDS, fail2banSettings, type Fail2banSettings } from '../api/fail2ban-settings.ts';

type Rules = Pick<Fail2banSettings, 'maxretry' | 'bantime' | 'findtime' | 'PBXFirewallMaxReqSec'>;
const FIELDS = ['maxretry', 'bantime', 'findtime', 'PBXFirewallMaxReqSec'] as const;

/** Ban thresholds: failures allowed, over which window, and for how long an address is banned. */
export function Fail2banSettingsForm() {
  const form = useSettingsForm(fail2banSettings, {
    toValues: ({ maxretry, bantime, findtime, PBXFirewallMaxReqSec }): Rules => ({ maxretry, bantime, findtime, PBXFirewallMaxReqSec }),
    fields: FIELDS,
    saved: { title: 'Ban rules saved', message: 'New bans use them at once.' },
  });
  const { errors, set } = form;
  return (
    <SettingsForm form={form} label="ban rules" name="Ban rules" submitLabel="Save ban rules">
      {(values) => (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <BoundedNumberInput label="Failures before a ban" {...FAIL2BAN_BOUNDS.maxretry} value={values.maxretry} onChange={(v) => set('maxretry', v)} error={errors.byField.maxretry} />
          <DurationInput
            label="Counting window"
            description="Failures older than this are forgotten."
            {...FAIL2BAN_BOUNDS.findtime}
            value={values.findtime}
            onChange={(v) => set('findtime', v)}
            error={errors.byField.findtime}
          />
          <DurationInput
            label="Ban duration"
            description="How long a banned address stays blocked."
            {...FAIL2BAN_BOUNDS.bantime}
            value={values.bantime}
            onChange={(v) => set('bantime', v)}
            error={errors.byField.bantime}
          />
          <BoundedNumberInput
            label="Max requests per second"
            description="Per address, on the web interface."
            {...FAIL2BAN_BOUNDS.PBXFirewallMaxReqSec}
            value={values.PBXFirewallMaxReqSec}
            onChange={(v) => set('PBXFirewallMaxReqSec', v)}
            error={errors.byField.PBXFirewallMaxReqSec}
          />
        </SimpleGrid>
      )}
    </SettingsForm>
  );
}
