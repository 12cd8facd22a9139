import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';

/** A button that asks before running a destructive action; the confirm button shows progress. */
export function ConfirmAction({
  trigger,
  title,
  message,
  confirmLabel,
  onConfirm,
  loading,
}: {
  trigger: (open: () => void) => ReactNode;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  loading?: boolean;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      {trigger(open)}
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={loading}
              data-autofocus
              onClick={() => {
                onConfirm().then(close, () => undefined);
              }}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
