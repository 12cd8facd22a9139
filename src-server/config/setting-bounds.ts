import { z } from 'zod';

import type { IntegerBound } from '../../src-shared/setting-bounds.ts';

// The table is shared with the console (src-shared/); the zod schemas and texts built from it stay here.
export {
  BANTIME_FACTOR_BOUND,
  MAX_BAN_SECONDS,
  SETTING_BOUNDS,
  type IntegerBound,
} from '../../src-shared/setting-bounds.ts';

/** `60 s`, `90 days`, `1 day`: a plural unit word loses its `s` for one (symbols such as `s` stay). */
const withUnit = (value: number, bound: IntegerBound) => {
  if (!bound.unit) return String(value);
  const unit = value === 1 && bound.unit.length > 2 && bound.unit.endsWith('s') ? bound.unit.slice(0, -1) : bound.unit;
  return `${value} ${unit}`;
};

/** A zod integer schema for a bound whose messages name it: `must be at most 2147483 s (ipset's ...)`. */
export function boundedInteger(bound: IntegerBound): z.ZodNumber {
  const range = `from ${withUnit(bound.min, bound)} to ${withUnit(bound.max, bound)}`;
  return z
    .number({ error: `must be a whole number ${range}` })
    .int({ error: `must be a whole number ${range}` })
    .min(bound.min, { error: `must be at least ${withUnit(bound.min, bound)}` })
    .max(bound.max, {
      error: `must be at most ${withUnit(bound.max, bound)}${bound.reason ? ` (${bound.reason})` : ''}`,
    });
}

/** `1-100`, `60-2147483 s`: the range as the field descriptions show it. */
export function rangeText(bound: IntegerBound): string {
  return `${bound.min}-${bound.max}${bound.unit ? ` ${bound.unit}` : ''}`;
}
