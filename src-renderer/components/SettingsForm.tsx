import { Button, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import type { SettingsForm as SettingsFormState } from '../lib/use-settings-form.ts';
import { FormError } from './FormError.tsx';
import { QueryState } from './QueryState.tsx';

/**
 * A settings form over a singleton resource: loading and load errors, then the fields, the server's
 * errors that name no field, and the save button.
 */
export function SettingsForm<V extends object, F extends string>({
  form,
  label,
  name,
  submitLabel,
  maw = 640,
  children,
}: {
  form: SettingsFormState<V, F>;
  /** What is loading, in "Loading …" and "Could not load …". */
  label: string;
  /** The form's accessible name. */
  name: string;
  submitLabel: string;
  maw?: number;
  children: (values: V) => ReactNode;
}) {
  return (
    <QueryState query={form.query} label={label}>
      {form.values && (
        <form onSubmit={form.submit} noValidate aria-label={name}>
          <Stack maw={maw}>
            {children(form.values)}
            <FormError messages={form.errors.other} />
            <Group>
              <Button type="submit" loading={form.save.isPending}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </QueryState>
  );
}
