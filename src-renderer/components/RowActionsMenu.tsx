import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface RowAction {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  /** `red` for destructive actions. */
  color?: string;
  /** Visible text of an inline button in a crowded table row (its accessible name keeps `label`). */
  shortLabel?: string;
}

/** The "…" menu at the end of a table row, named for screen readers after the row it acts on. */
export function RowActionsMenu({ rowLabel, actions }: { rowLabel: string; actions: RowAction[] }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${rowLabel}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) => (
          <Menu.Item key={action.label} color={action.color} leftSection={action.icon} onClick={action.onClick}>
            {action.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
