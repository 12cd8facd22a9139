import { Box, Group, NativeSelect, NumberInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { DURATION_UNITS, formatExactDuration, type DurationUnit } from '../lib/format.ts';

/** The unit choice "Permanent": no amount, the value is Infinity. */
const PERMANENT = 'permanent';

interface Amount {
  amount: number | string;
  unit: DurationUnit | typeof PERMANENT;
}

const secondsPer = (unit: DurationUnit) => DURATION_UNITS.find((u) => u.value === unit)!.seconds;

/** Seconds of a typed amount; NaN while the field is empty or not a number (the server then says what is wrong). */
const toSeconds = ({ amount, unit }: Amount) =>
  unit === PERMANENT
    ? Infinity
    : amount === '' || !Number.isFinite(Number(amount))
      ? NaN
      : Math.round(Number(amount) * secondsPer(unit));

/**
 * The largest unit that shows the value as a whole number: 600 → 10 min, 86400 → 1 d, 90 → 90 s. Empty, the unit is
 * `emptyUnit` (the unit of the value the placeholder shows), else minutes.
 */
function split(seconds: number, units: readonly DurationUnit[], emptyUnit?: DurationUnit): Amount {
  if (seconds === Infinity) return { amount: '', unit: PERMANENT };
  if (!Number.isFinite(seconds))
    return {
      amount: '',
      unit: emptyUnit && units.includes(emptyUnit) ? emptyUnit : units.includes('min') ? 'min' : units[0]!,
    };
  const unit = [...units].reverse().find((u) => seconds !== 0 && seconds % secondsPer(u) === 0) ?? units[0]!;
  return { amount: seconds / secondsPer(unit), unit };
}

/** A duration as a whole number of its largest unit: "1 h", "90 min" (a placeholder whose unit the field takes). */
export function durationInUnit(seconds: number, units: readonly DurationUnit[] = ['s', 'min', 'h', 'd']) {
  const { amount, unit } = split(seconds, units);
  return { text: `${amount} ${unit}`, unit: unit as DurationUnit };
}

/**
 * The server states bounds in seconds ("at most 2147483 s"); under this field they read in the units
 * of its hint ("24 d 20 h 31 min 23 s"), so the error and the hint agree.
 */
export const inHintUnits = (error: string | undefined) =>
  error?.replace(/\b(\d+) ?(?:s|secs?|seconds?)\b/g, (_match, seconds: string) => formatExactDuration(Number(seconds)));

const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/**
 * A duration typed in s, min, h or d and stored in seconds. The server's bounds are shown as a hint;
 * nothing is clamped: a value out of bounds is sent as typed, and the server's 422 shows under the field.
 * With `allowPermanent`, the unit list ends with "Permanent", whose value is Infinity.
 */
export function DurationInput({
  label,
  value,
  onChange,
  min,
  max,
  units = ['s', 'min', 'h', 'd'],
  description,
  error,
  allowPermanent,
  hideLabel,
  placeholder,
  emptyUnit,
}: {
  label: string;
  /** In a table cell: the label names the input for screen readers only, and the bounds are left to the table. */
  hideLabel?: boolean;
  /** Shown while empty (a per-category cell shows the global value it falls back to). */
  placeholder?: string;
  /** The unit while empty: the placeholder's, so that typing 2 beside "1 h (global)" means 2 h. */
  emptyUnit?: DurationUnit;
  /** Seconds (NaN while empty). */
  value: number;
  onChange: (seconds: number) => void;
  /** The server's bounds, in seconds. */
  min: number;
  max: number;
  units?: readonly DurationUnit[];
  description?: string;
  error?: string;
  allowPermanent?: boolean;
}) {
  const [typed, setTyped] = useState<Amount>(() => split(value, units, emptyUnit));
  // A new stored value (first load, saved record) replaces what is shown; the user's own typing does not.
  useEffect(() => {
    if (!same(toSeconds(typed), value)) setTyped(split(value, units, emptyUnit));
  }, [value]);
  // While empty, the unit follows the placeholder's (the global value changed beside it).
  useEffect(() => {
    if (emptyUnit && typed.amount === '' && typed.unit !== PERMANENT) setTyped({ amount: '', unit: emptyUnit });
  }, [emptyUnit]);
  const change = (next: Amount) => {
    setTyped(next);
    onChange(toSeconds(next));
  };
  const permanent = typed.unit === PERMANENT;
  const bounds = `From ${formatExactDuration(min)} to ${formatExactDuration(max)}${allowPermanent ? ', or permanent' : ''}.`;
  // Leaving "Permanent" for a unit starts from 1 of it, not from an empty field.
  const changeUnit = (unit: Amount['unit']) =>
    change({ amount: typed.unit === PERMANENT && unit !== PERMANENT ? 1 : typed.amount, unit });
  return (
    <NumberInput
      label={hideLabel ? undefined : label}
      aria-label={hideLabel ? label : undefined}
      description={hideLabel ? undefined : description ? `${description} ${bounds}` : bounds}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      value={permanent ? '' : typed.amount}
      placeholder={permanent ? 'No end' : placeholder}
      disabled={permanent}
      onChange={(amount) => change({ ...typed, amount })}
      error={inHintUnits(error)}
      hideControls
      inputContainer={(input) => (
        <Group gap={6} wrap="nowrap" align="flex-start">
          <Box style={{ flex: 1, minWidth: 0 }}>{input}</Box>
          <NativeSelect
            aria-label={`Unit of ${label.toLowerCase()}`}
            data={[
              ...units.map((u) => ({ value: u, label: u })),
              ...(allowPermanent ? [{ value: PERMANENT, label: 'Permanent' }] : []),
            ]}
            value={typed.unit}
            onChange={(event) => changeUnit(event.currentTarget.value as Amount['unit'])}
            w={allowPermanent ? 136 : 84}
          />
        </Group>
      )}
    />
  );
}
