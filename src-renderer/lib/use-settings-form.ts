import { notifications } from '@mantine/notifications';
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { fieldErrors } from './field-errors.ts';
import type { SettingsResource } from './settings-resource.ts';
import { useUnsavedEdits } from './unsaved-edits.ts';

/** The server's bounds of a form's number fields, by field (GENERAL_SETTINGS_BOUNDS, FAIL2BAN_BOUNDS...). */
type FieldBounds = Record<string, { min: number; max: number }>;

export interface SettingsFormOptions<T extends object, I, V extends object, F extends string, B extends FieldBounds> {
  /** The form's values from the stored settings (defaults for missing fields, a write-only secret emptied...). */
  toValues: (stored: T) => V;
  /** What is sent on save; the values as they are by default. */
  toInput?: (values: V) => I;
  /** Fields whose server errors are shown under their input; other errors go to the form's alert. */
  fields: readonly F[];
  /** The notification after a successful save. */
  saved: { title: string; message: string };
  /** The bounds of the number fields, which `boundedField` puts on their input. */
  bounds?: B;
}

/** State, server errors and submit of a form over a singleton settings resource. */
export function useSettingsForm<
  T extends object,
  I,
  V extends object,
  F extends string,
  B extends FieldBounds = Record<never, { min: number; max: number }>,
>(resource: SettingsResource<T, I>, options: SettingsFormOptions<T, I, V, F, B>) {
  const query = resource.useSettings();
  const save = resource.useUpdateSettings();
  const [values, setValues] = useState<V | null>(null);
  const { toValues, toInput, fields, saved, bounds = {} as B } = options;
  // Follows the stored settings: first load, and the record the server answers a save with.
  // (toValues is a pure mapping, usually an inline arrow: only new data re-runs it.)
  useEffect(() => {
    if (query.data) setValues(toValues(query.data));
  }, [query.data]);

  // Unsaved: the form differs from what the server stored (the one guard asks before leaving).
  const dirty =
    values !== null && query.data !== undefined && JSON.stringify(values) !== JSON.stringify(toValues(query.data));
  useUnsavedEdits(dirty);
  /** Back to what the server stored. */
  const discard = () => {
    if (query.data) setValues(toValues(query.data));
    save.reset();
  };

  const set = <K extends keyof V>(key: K, value: V[K]) =>
    setValues((current) => (current ? { ...current, [key]: value } : current));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    save.mutate((toInput ?? ((v: V) => v as unknown as I))(values), {
      onSuccess: (stored) => {
        // Show what was stored (normalised values, a write-only secret emptied), even when it equals the cached record.
        if (stored && typeof stored === 'object') setValues(toValues(stored));
        notifications.show({ color: 'teal', title: saved.title, message: saved.message });
      },
    });
  };

  const errors = fieldErrors(save.error, fields);
  /** A field's value, setter and server error, to spread onto its input: `<BoundedNumberInput {...field('port')} />`. */
  const field = <K extends keyof V & F>(key: K) => ({
    value: values?.[key] as V[K], // the inputs render only once the values are loaded
    onChange: (value: V[K]) => set(key, value),
    error: errors.byField[key],
  });
  /** The same with the field's bounds, for a number or duration: `<DurationInput {...boundedField('findtime')} />`. */
  const boundedField = <K extends keyof V & F & keyof B>(key: K) => ({ ...bounds[key], ...field(key) });
  /** The same for a text input, whose change is an event (a write-only secret left unset reads as empty). */
  const textField = <K extends keyof V & F>(key: K) => ({
    ...field(key),
    value: (values?.[key] ?? '') as V[K],
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(key, event.currentTarget.value as V[K]),
  });
  /** A switch's or checkbox's state and setter: `<Switch label="…" {...switchField('enabled')} />`. */
  const switchField = <K extends keyof V>(key: K) => ({
    checked: values?.[key] as boolean,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(key, event.currentTarget.checked as V[K]),
  });

  return {
    query,
    save,
    values,
    setValues,
    set,
    field,
    boundedField,
    textField,
    switchField,
    errors,
    submit,
    dirty,
    discard,
  };
}

export type SettingsForm<V extends object, F extends string> = Pick<
  ReturnType<typeof useSettingsForm<object, unknown, V, F>>,
  'query' | 'values' | 'set' | 'field' | 'textField' | 'switchField' | 'errors' | 'submit'
> & {
  /** The save's state (its input is the form's own, so only the state is shared). */
  save: { isPending: boolean };
  /** Edits not yet saved, and going back to the stored values (the save bar of a settings page). */
  dirty?: boolean;
  discard?: () => void;
};
