import { Button, Group, Stack } from '@mantine/core';
import { useRef, type ReactNode } from 'react';
import type { SettingsForm as SettingsFormState } from '../lib/use-settings-form.ts';
import { FormError } from './FormError.tsx';
import { QueryState } from './QueryState.tsx';
import { useSaveBar } from './SaveBar.tsx';

/**
 * A settings form over a singleton resource: loading and load errors, then the fields, the server's
 * errors that name no field, and the save button (on a page with a save bar, the bar's).
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
  const element = useRef<HTMLFormElement>(null);
  // On a page with a save bar (Settings) the bar saves this form: the real submit, so the same checks run.
  const inBar = useSaveBar(
    form.dirty || form.save.isPending
      ? {
          name,
          saving: form.save.isPending,
          save: () => element.current?.requestSubmit(),
          discard: () => form.discard?.(),
        }
      : null,
  );
  return (
    <QueryState query={form.query} label={label}>
      {form.values && (
        <form ref={element} onSubmit={form.submit} noValidate aria-label={name}>
          <Stack maw={maw}>
            {children(form.values)}
            <FormError messages={form.errors.other} />
            {!inBar && (
              <Group>
                <Button type="submit" loading={form.save.isPending}>
                  {submitLabel}
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      )}
    </QueryState>
  );
}
