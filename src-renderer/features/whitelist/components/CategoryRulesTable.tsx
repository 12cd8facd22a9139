import { NumberInput, Table, Text } from '@mantine/core';
import { DurationInput, durationInUnit } from '../../../components/DurationInput.tsx';
import { formatExactDuration } from '../../../lib/format.ts';
import { FAIL2BAN_BOUNDS, RULE_CATEGORIES, type BanRule, type RuleCategory } from '../api/fail2ban-settings.ts';

/** Each category's own numbers; NaN: the global value applies. */
export type CategoryValues = Record<RuleCategory, BanRule>;

/** The server's field name of one cell, for its 422 (`categories.sip.maxretry`). */
export const cellField = (category: RuleCategory, name: keyof BanRule) => `categories.${category}.${name}` as const;
export const CELL_FIELDS = RULE_CATEGORIES.flatMap((c) =>
  (['maxretry', 'findtime', 'bantime'] as const).map((n) => cellField(c.value, n)),
);
export type CellField = (typeof CELL_FIELDS)[number];

/** The two times of a rule, each a column: the counting window and the ban length. */
const DURATIONS = [
  { name: 'findtime', word: 'window' },
  { name: 'bantime', word: 'ban length' },
] as const;

/**
 * SIP, IAX, AMI and HTTP each with failures, window and ban length; an empty cell falls back to the
 * global value, shown as its placeholder. Scrolls sideways on a phone, like every table here.
 */
export function CategoryRulesTable({
  values,
  global,
  onChange,
  errors,
}: {
  values: CategoryValues;
  global: BanRule;
  onChange: (category: RuleCategory, name: keyof BanRule, value: number) => void;
  errors: Partial<Record<CellField, string>>;
}) {
  return (
    <div>
      <Text size="sm" fw={500} id="category-rules-title">
        Per service
      </Text>
      <Text size="xs" c="dimmed" mb="xs">
        Leave a cell empty to use the global value. Failures {FAIL2BAN_BOUNDS.maxretry.min}-
        {FAIL2BAN_BOUNDS.maxretry.max}; window up to {formatExactDuration(FAIL2BAN_BOUNDS.findtime.max)}; ban up to{' '}
        {formatExactDuration(FAIL2BAN_BOUNDS.bantime.max)}.
      </Text>
      <Table.ScrollContainer minWidth={620}>
        <Table aria-labelledby="category-rules-title" verticalSpacing="xs" data-testid="category-rules">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Service</Table.Th>
              <Table.Th>Failures before a ban</Table.Th>
              <Table.Th>Counting window</Table.Th>
              <Table.Th>Ban duration</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {RULE_CATEGORIES.map(({ value: category, label }) => {
              const row = values[category];
              return (
                <Table.Tr key={category}>
                  <Table.Th scope="row">{label}</Table.Th>
                  <Table.Td>
                    <NumberInput
                      aria-label={`${label}: failures`}
                      placeholder={`${global.maxretry} (global)`}
                      value={Number.isNaN(row.maxretry) ? '' : row.maxretry}
                      onChange={(typed) => onChange(category, 'maxretry', typed === '' ? NaN : Number(typed))}
                      error={errors[cellField(category, 'maxretry')]}
                      hideControls
                      miw={110}
                    />
                  </Table.Td>
                  {DURATIONS.map(({ name, word }) => (
                    <Table.Td key={name}>
                      <DurationInput
                        hideLabel
                        label={`${label}: ${word}`}
                        placeholder={`${durationInUnit(global[name]).text} (global)`}
                        emptyUnit={durationInUnit(global[name]).unit}
                        {...FAIL2BAN_BOUNDS[name]}
                        value={row[name]}
                        onChange={(v) => onChange(category, name, v)}
                        error={errors[cellField(category, name)]}
                      />
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </div>
  );
}
