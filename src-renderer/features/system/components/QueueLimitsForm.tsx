import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { DurationInput } from '../../../components/DurationInput.tsx';
import { SettingsForm } from '../../../components/SettingsForm.tsx';
import { useSettingsForm } from '../../../lib/use-settings-form.ts';
import { GENERAL_SETTINGS_BOUNDS, generalSettings, type GeneralSettings } from '../api/general-settings.ts';

type QueueLimits = Pick<GeneralSettings, 'APIQueueMaxLength' | 'APIRequestTTL'>;
const FIELDS = ['APIQueueMaxLength', 'APIRequestTTL'] as const;

/** Request queue length and request age limit (general-settings). */
export function QueueLimitsForm() {
  const form = useSettingsForm(generalSettings, {
    toValues: ({ APIQueueMaxLength, APIRequestTTL }): QueueLimits => ({ APIQueueMaxLength, APIRequestTTL }),
    fields: FIELDS,
    saved: { title: 'Queue limits saved', message: 'They apply within 10 seconds.' },
    bounds: GENERAL_SETTINGS_BOUNDS,
  });
  const { boundedField } = form;
  return (
    <SettingsForm form={form} label="queue limits" name="Queue limits" submitLabel="Save queue limits" maw={420}>
      {() => (
        <>
          <BoundedNumberInput
            label="Queue length"
            description="Requests that may wait for a worker; beyond this the server answers 503 at once."
            {...boundedField('APIQueueMaxLength')}
          />
          <DurationInput
            label="Request age limit"
            description="A request still queued after this long is dropped: its client has given up."
            units={['s', 'min', 'h']}
            {...boundedField('APIRequestTTL')}
          />
        </>
      )}
    </SettingsForm>
  );
}
