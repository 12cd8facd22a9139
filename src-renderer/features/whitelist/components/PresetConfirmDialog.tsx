import { Modal, Stack, Text } from '@mantine/core';
import { ModalFooter } from '../../../components/ModalFooter.tsx';

/**
 * Asks before a preset replaces per-service values the form holds: a preset sets one rule for every service, so
 * the services' own numbers would be emptied without a word otherwise.
 */
export function PresetConfirmDialog({
  preset,
  services,
  onConfirm,
  onCancel,
}: {
  /** The preset's label; null when no choice waits. */
  preset: string | null;
  /** The services that have their own values. */
  services: string[];
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal opened={preset !== null} onClose={onCancel} title={`Use the ${preset ?? ''} preset?`} centered>
      <Stack>
        <Text size="sm">
          {services.join(', ')} {services.length === 1 ? 'has its' : 'have their'} own failures, window or ban duration.
          The {preset} preset sets one rule for every service and clears them.
        </Text>
        <ModalFooter
          onCancel={onCancel}
          submitLabel="Use the preset and clear them"
          color="red"
          autoFocus
          onConfirm={onConfirm}
        />
      </Stack>
    </Modal>
  );
}
