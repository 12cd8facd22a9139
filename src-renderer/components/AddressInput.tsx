import { FirstField } from './FirstField.tsx';

/** The "Address or network" field of the ban and whitelist dialogs: required, focused first, its error under the hint. */
export function AddressInput(props: {
  description: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <FirstField label="Address or network" inputWrapperOrder={['label', 'input', 'description', 'error']} {...props} />
  );
}
