import { Checkbox } from '@mantine/core';

/** A row's tick box, "Select <row>". */
export function SelectRowCheckbox({
  rowKey,
  label,
  selected,
  onToggle,
}: {
  rowKey: string;
  label: string;
  selected: boolean;
  onToggle: (key: string, on: boolean) => void;
}) {
  return (
    <Checkbox
      aria-label={`Select ${label}`}
      checked={selected}
      onChange={(event) => onToggle(rowKey, event.currentTarget.checked)}
    />
  );
}

/** "Select all <noun> shown": named for screen readers in the table header, a visible label above the cards. */
export function SelectShownCheckbox({
  noun,
  state,
  shownCount,
  visibleLabel,
  onToggle,
}: {
  noun: string;
  state: 'none' | 'some' | 'all';
  shownCount: number;
  visibleLabel: boolean;
  onToggle: (on: boolean) => void;
}) {
  const name = `Select all ${noun} shown`;
  return (
    <Checkbox
      aria-label={visibleLabel ? undefined : name}
      label={visibleLabel ? name : undefined}
      checked={shownCount > 0 && state === 'all'}
      indeterminate={state === 'some'}
      disabled={shownCount === 0}
      onChange={(event) => onToggle(event.currentTarget.checked)}
    />
  );
}
