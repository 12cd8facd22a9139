import { Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { DialogTarget } from '../lib/use-dialog-target.ts';
import { ModalFooter } from './ModalFooter.tsx';

/**
 * Asks before a destructive action on one record (from useDialogTarget). Closes once the action
 * succeeds; stays open if it fails (the API client shows why).
 */
export function ConfirmDialog<T>({
  dialog,
  title,
  message,
  confirmLabel,
  onConfirm,
  loading,
}: {
  dialog: DialogTarget<T>;
  title: (target: T) => string;
  message: (target: T) => ReactNode;
  confirmLabel: string;
  onConfirm: (target: T) => Promise<unknown>;
  loading?: boolean;
}) {
  const { target } = dialog;
  return (
    <Modal opened={dialog.opened} onClose={dialog.close} title={target === null ? '' : title(target)} centered>
      {target !== null && (
        <Stack>
          <Text size="sm">{message(target)}</Text>
          <ModalFooter
            onCancel={dialog.close}
            submitLabel={confirmLabel}
            color="red"
            loading={loading}
            autoFocus
            onConfirm={() => void onConfirm(target).then(dialog.close, () => undefined)}
          />
        </Stack>
      )}
    </Modal>
  );
}
