import { Button, Group } from '@mantine/core';
import { RowActionsMenu, type RowAction } from '../RowActionsMenu.tsx';

/** Screen-reader name of an action button of a row: "Unban 192.0.2.1". */
const actionName = (action: RowAction, rowLabel: string) => `${action.label.replace(/…$/, '')} ${rowLabel}`;

/** One button per action, each named for screen readers with the row it acts on. */
export function ActionButtons({
  actions,
  rowLabel,
  short,
}: {
  actions: RowAction[];
  rowLabel: string;
  short?: boolean;
}) {
  return actions.map((action) => (
    <Button
      key={action.label}
      size="xs"
      variant="light"
      color={action.color}
      leftSection={action.icon}
      onClick={action.onClick}
      aria-label={actionName(action, rowLabel)}
    >
      {short ? (action.shortLabel ?? action.label) : action.label}
    </Button>
  ));
}

/** A table row's actions: one action a button, several a "…" menu (or buttons when inline). */
export function ActionsCell({
  actions,
  rowLabel,
  inline,
}: {
  actions: RowAction[];
  rowLabel: string;
  inline?: boolean;
}) {
  if (actions.length === 0) return null;
  if (actions.length > 1 && !inline) return <RowActionsMenu rowLabel={rowLabel} actions={actions} />;
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <ActionButtons actions={actions} rowLabel={rowLabel} short={inline} />
    </Group>
  );
}
