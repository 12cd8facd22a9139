import { FirstField } from '../../../components/FirstField.tsx';

/** A key's description, first in the create and edit dialogs: required once the operator has tried to save. */
export function KeyDescriptionField({
  value,
  onChange,
  touched,
  errors,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  /** Submitted at least once: an empty description is then an error. */
  touched: boolean;
  /** The dialog's field errors: the server's word on the description shows under it. */
  errors: { byField: { description?: string } };
  placeholder?: string;
}) {
  const error =
    (touched && !value.trim() ? 'Say what the key is for, e.g. “Bouncer on fw1”.' : null) ?? errors.byField.description;
  return <FirstField label="Description" placeholder={placeholder} value={value} onChange={onChange} error={error} />;
}
