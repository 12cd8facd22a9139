import { MultiSelect, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useFormValues } from '../../../lib/use-form-values.ts';
import type { Channel } from '../api/channels.ts';
import { useSaveRule, type Rule } from '../api/rules.ts';
import {
  CHECK_OPTIONS,
  emptyRuleInput,
  RULE_FIELDS,
  SEVERITIES,
  toRuleBody,
  toRuleInput,
  type RuleInput,
} from '../model/rule-form.ts';

/** Create or edit a rule: which checks, from which severity, to which channel, how often. */
export function RuleFormModal({
  opened,
  onClose,
  rule,
  channels,
}: {
  opened: boolean;
  onClose: () => void;
  rule?: Rule;
  channels: Channel[];
}) {
  const save = useSaveRule();
  const { values, setValues, edit, text } = useFormValues<RuleInput>(emptyRuleInput, () => {
    if (save.error) save.reset();
  });
  useEffect(() => {
    if (opened) {
      setValues(rule ? toRuleInput(rule) : emptyRuleInput(channels[0] ? String(channels[0].id) : ''));
      save.reset();
    }
  }, [opened, rule]);
  const errors = fieldErrors(save.error, RULE_FIELDS);
  const submit = () =>
    save.mutate(
      { id: rule?.id, body: toRuleBody(values) },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: rule ? 'Rule saved' : 'Rule added', message: values.name });
          onClose();
        },
      },
    );

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={rule ? `Edit rule ${rule.name}` : 'New notification rule'}
      size="lg"
      onSubmit={submit}
      submitLabel={rule ? 'Save rule' : 'Add rule'}
      loading={save.isPending}
      errors={errors.other}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Name"
          placeholder="On call"
          required
          data-autofocus
          {...text('name')}
          error={errors.byField.name}
        />
        <Select
          label="Send to"
          data={channels.map((c) => ({ value: String(c.id), label: c.name }))}
          value={values.channelId || null}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          onChange={(id) => id && edit({ channelId: id })}
          error={errors.byField.channelId}
        />
      </SimpleGrid>
      <MultiSelect
        label="Checks"
        description="Leave empty to send every check"
        placeholder={values.checks.length ? undefined : 'Every check'}
        data={CHECK_OPTIONS}
        value={values.checks}
        comboboxProps={{ withinPortal: true }}
        onChange={(checks) => edit({ checks: checks as RuleInput['checks'] })}
        error={errors.byField.checks}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Minimum severity"
          data={SEVERITIES}
          value={values.minSeverity}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          onChange={(severity) => severity && edit({ minSeverity: severity as RuleInput['minSeverity'] })}
          error={errors.byField.minSeverity}
        />
        <BoundedNumberInput
          label="Digest"
          description="At most one message per this many minutes (0: each change at once)"
          min={0}
          max={1440}
          unit="min"
          value={values.digestMinutes}
          onChange={(digestMinutes) => edit({ digestMinutes })}
          error={errors.byField.digestMinutes}
        />
      </SimpleGrid>
      <Switch
        label="Also send recoveries (“fw1 polls again after 42 min”)"
        checked={values.recoveries}
        onChange={(e) => edit({ recoveries: e.currentTarget.checked })}
      />
      <Switch label="Enabled" checked={values.enabled} onChange={(e) => edit({ enabled: e.currentTarget.checked })} />
    </FormModal>
  );
}
