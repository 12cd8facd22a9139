import type { ReactNode } from 'react';
import { FirstField } from './FirstField.tsx';

const HINT = 'An IPv4 or IPv6 address, or a network in CIDR form.';

/** The "Address or network" field of the ban and whitelist dialogs: required, focused first, its error under the hint. */
export function AddressInput({
  consequence,
  ...props
}: {
  /** What saving does to the address, said after the hint ("Its active bans are lifted."). */
  consequence?: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  /** The server's refusal; a clash with a whitelist entry links to it (ServerMessage). */
  error?: ReactNode;
}) {
  return (
    <FirstField
      label="Address or network"
      description={consequence ? `${HINT} ${consequence}` : HINT}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      {...props}
    />
  );
}
