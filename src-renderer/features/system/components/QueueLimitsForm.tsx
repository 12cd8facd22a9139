import { Alert, Button, Group, NumberInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState, type FormEvent } from 'react';
import { QueryState } from '../../../components/QueryState.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useGeneralSettings, useUpdateGeneralSettings, type GeneralSettings } from '../api/general-settings.ts';

const FIELDS = ['APIQueueMaxLength', 'APIRequestTTL'] as const;

/** Request queue length and request age limit (general-settings). */
export function QueueLimitsForm() {
  const settings = useGeneralSettings();
  const save = useUpdateGeneralSettings();
  const [values, setValues] = useState<GeneralSettings | null>(null);
  useEffect(() => {
    if (settings.data) setValues(settings.data);
  }, [settings.data]);
  const errors = fieldErrors(save.error, FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    save.mutate(values, { onSuccess: () => notifications.show({ color: 'teal', title: 'Queue limits saved', message: 'They apply within 10 seconds.' }) });
  };

  return (
    <QueryState query={settings} label="queue limits">
      {values && (
        <form onSubmit={submit} noValidate aria-label="Queue limits">
          <Stack maw={420}>
            <NumberInput
              label="Queue length"
              description="Requests that may wait for a worker. Beyond this the server answers 503 at once."
              min={1}
              max={10000}
              value={values.APIQueueMaxLength}
              onChange={(v) => setValues({ ...values, APIQueueMaxLength: Number(v) })}
              error={errors.byField.APIQueueMaxLength}
            />
            <NumberInput
              label="Request age limit (seconds)"
              description="A request still queued after this long is dropped: its client has given up."
              min={1}
              max={3600}
              value={values.APIRequestTTL}
              onChange={(v) => setValues({ ...values, APIRequestTTL: Number(v) })}
              error={errors.byField.APIRequestTTL}
            />
            {errors.other.length > 0 && <Alert color="red" variant="light" role="alert">{errors.other.join(' ')}</Alert>}
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save queue limits
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </QueryState>
  );
}
