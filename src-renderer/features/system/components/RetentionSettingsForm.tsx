import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { SettingsForm } from '../../../components/SettingsForm.tsx';
import { useSettingsForm } from '../../../lib/use-settings-form.ts';
import { GENERAL_SETTINGS_BOUNDS, generalSettings, type GeneralSettings } from '../api/general-settings.ts';

type Retention = Pick<GeneralSettings, 'banHistoryRetentionDays' | 'auditRetentionDays'>;
const FIELDS = ['banHistoryRetentionDays', 'auditRetentionDays'] as const;

/**
 * How long the ban history and the audit log keep their rows (general-settings). Both live here, not
 * in the bans and audit features, because the general-settings resource and its query key are this feature's.
 */
export function RetentionSettingsForm() {
  const form = useSettingsForm(generalSettings, {
    toValues: ({ banHistoryRetentionDays, auditRetentionDays }): Retention => ({
      banHistoryRetentionDays,
      auditRetentionDays,
    }),
    fields: FIELDS,
    saved: {
      title: 'Retention saved',
      message: 'The next prune uses it: within a minute for the ban history, an hour for the audit log.',
    },
    bounds: GENERAL_SETTINGS_BOUNDS,
  });
  const { boundedField } = form;
  return (
    <SettingsForm form={form} label="retention" name="Retention" submitLabel="Save retention" maw={420}>
      {() => (
        <>
          <BoundedNumberInput
            label="Keep ban history for"
            description={
              'Bans that ended (lifted or expired) longer ago are pruned from the ban history every ' +
              'minute; bans in force never are.'
            }
            unit="days"
            {...boundedField('banHistoryRetentionDays')}
          />
          <BoundedNumberInput
            label="Keep audit log for"
            description="Audit log entries older than this are deleted every hour."
            unit="days"
            {...boundedField('auditRetentionDays')}
          />
        </>
      )}
    </SettingsForm>
  );
}
