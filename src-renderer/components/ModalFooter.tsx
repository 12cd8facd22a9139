import { Button, Group } from '@mantine/core';

/**
 * The buttons at the foot of a dialog: Cancel, then the primary action, which shows progress.
 * Without `onConfirm` the primary button submits the dialog's form.
 */
export function ModalFooter({
  onCancel,
  submitLabel,
  loading,
  color,
  onConfirm,
  autoFocus,
}: {
  onCancel: () => void;
  submitLabel: string;
  loading?: boolean;
  /** `red` for destructive actions. */
  color?: string;
  onConfirm?: () => void;
  /** Focus the primary button when the dialog opens (confirmations have no field to focus). */
  autoFocus?: boolean;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        onClick={onConfirm}
        color={color}
        loading={loading}
        data-autofocus={autoFocus || undefined}
      >
        {submitLabel}
      </Button>
    </Group>
  );
}
