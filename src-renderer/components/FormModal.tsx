import { Modal, Stack, type ModalProps } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { FormError } from './FormError.tsx';
import { ModalFooter } from './ModalFooter.tsx';

export interface ModalFormProps {
  onSubmit: () => void;
  /** Cancel closes the dialog. */
  onClose: () => void;
  /** The server's errors that name no field of the form. */
  errors?: string[];
  submitLabel: string;
  loading?: boolean;
  /** `red` for destructive actions. */
  color?: string;
  children: ReactNode;
}

/**
 * The form inside a dialog: the fields, the server's errors that name no field, then Cancel and the submit
 * button. Submitting never reloads the page; the browser's own validation is off (the server's speaks).
 */
export function ModalForm({ onSubmit, onClose, errors = [], submitLabel, loading, color, children }: ModalFormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {children}
        <FormError messages={errors} />
        <ModalFooter onCancel={onClose} submitLabel={submitLabel} loading={loading} color={color} />
      </Stack>
    </form>
  );
}

/** A centred dialog around one form (ModalForm). */
export function FormModal({
  opened,
  title,
  size = 'md',
  ...form
}: ModalFormProps & { opened: boolean; title: ReactNode; size?: ModalProps['size'] }) {
  return (
    <Modal opened={opened} onClose={form.onClose} title={title} centered size={size}>
      <ModalForm {...form} />
    </Modal>
  );
}
