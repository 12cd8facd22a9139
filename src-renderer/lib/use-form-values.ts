import { useState, type ChangeEvent } from 'react';

/**
 * The values of a dialog's form, edited a few fields at a time. `onEdit` runs before each edit (to clear the
 * server's verdict on the previous attempt); `text` and `check` bind an input, like Mantine's getInputProps.
 */
export function useFormValues<V extends object>(initial: V | (() => V), onEdit?: () => void) {
  const [values, setValues] = useState<V>(initial);
  const edit = (patch: Partial<V>) => {
    onEdit?.();
    setValues((current) => ({ ...current, ...patch }));
  };
  /** A text input's value and change handler. */
  const text = <K extends keyof V>(key: K) => ({
    value: values[key] as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) => edit({ [key]: event.currentTarget.value } as Partial<V>),
  });
  /** A switch's or checkbox's state and change handler. */
  const check = <K extends keyof V>(key: K) => ({
    checked: values[key] as boolean,
    onChange: (event: ChangeEvent<HTMLInputElement>) => edit({ [key]: event.currentTarget.checked } as Partial<V>),
  });
  return { values, setValues, edit, text, check };
}
