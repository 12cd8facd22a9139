import { NumberInput, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { DurationInput } from '../../../components/DurationInput.tsx';
import { FAIL2BAN_BOUNDS } from '../api/fail2ban-settings.ts';

/** fail2ban's bantime.increment options as the form holds them. */
export interface RepeatOffenderValues {
  bantimeFactor: number;
  /** As typed: numbers separated by spaces; empty for the doubling formula. */
  multipliers: string;
  bantimeMaxtime: number;
  bantimeRndtime: number;
  bantimeOveralljails: boolean;
}

type Field = 'bantimeFactor' | 'bantimeMultipliers' | 'bantimeMaxtime' | 'bantimeRndtime';

/** How much longer a repeat offender is banned: multipliers or doubling, factor, longest ban, random extra, across services. */
export function RepeatOffenderFields({
  values,
  onChange,
  errors,
}: {
  values: RepeatOffenderValues;
  onChange: (patch: Partial<RepeatOffenderValues>) => void;
  errors: Partial<Record<Field, string>>;
}) {
  /** A duration field's bounds, value, setter and server error, to spread onto its input. */
  const duration = (name: 'bantimeMaxtime' | 'bantimeRndtime') => ({
    ...FAIL2BAN_BOUNDS[name],
    value: values[name],
    onChange: (value: number) => onChange({ [name]: value }),
    error: errors[name],
  });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput
        label="Multipliers"
        description={
          'Up to 20 numbers, e.g. 1 2 4 8: the ban after n earlier ones lasts ban duration × factor × ' +
          'the n-th number (the last repeats). Empty: doubling each time.'
        }
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        value={values.multipliers}
        onChange={(e) => onChange({ multipliers: e.currentTarget.value })}
        error={errors.bantimeMultipliers}
      />
      <NumberInput
        label="Factor"
        description={`${FAIL2BAN_BOUNDS.bantimeFactor.min} to ${FAIL2BAN_BOUNDS.bantimeFactor.max}; decimals allowed.`}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        value={Number.isNaN(values.bantimeFactor) ? '' : values.bantimeFactor}
        onChange={(v) => onChange({ bantimeFactor: v === '' ? NaN : Number(v) })}
        decimalScale={2}
        error={errors.bantimeFactor}
      />
      <DurationInput
        label="Longest ban"
        description="No repeat ban is longer (bantime.maxtime); not below any ban duration."
        {...duration('bantimeMaxtime')}
      />
      <DurationInput
        label="Random extra time"
        description="Up to this much is added at random, so bots cannot time their return (bantime.rndtime)."
        units={['s', 'min', 'h']}
        {...duration('bantimeRndtime')}
      />
      <Switch
        label="Count bans of every service"
        description="bantime.overalljails: a SIP ban counts for the next web ban too."
        checked={values.bantimeOveralljails}
        onChange={(e) => onChange({ bantimeOveralljails: e.currentTarget.checked })}
      />
    </SimpleGrid>
  );
}
