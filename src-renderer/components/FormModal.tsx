import { Alert, Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
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

/**
 * A centred dialog around one form (ModalForm). With `dirty`, closing it (Esc, the close button, a click beside it,
 * Cancel) first asks whether to drop what was typed.
 */
export function FormModal({
  opened,
  title,
  size = 'md',
  dirty = false,
  ...form
}: ModalFormProps & { opened: boolean; title: ReactNode; size?: ModalProps['size']; dirty?: boolean }) {
  const [asking, setAsking] = useState(false);
  useEffect(() => setAsking(false), [opened]);
  const requestClose = () => (dirty ? setAsking(true) : form.onClose());
  return (
    <Modal opened={opened} onClose={requestClose} title={title} centered size={size}>
      <ModalForm {...form} onClose={requestClose} />
      {asking && (
        <Alert
          color="yellow"
          mt="md"
          role="alertdialog"
          aria-label="Discard your changes?"
          title="Discard your changes?"
        >
          <Stack gap="xs">
            What you typed in this dialog is lost if you close it.
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)} autoFocus>
                Keep editing
              </Button>
              <Button color="red" onClick={form.onClose}>
                Discard
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
    </Modal>
  );
}
