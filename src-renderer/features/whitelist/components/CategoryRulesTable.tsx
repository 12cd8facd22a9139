import { NumberInput, Table, Text } from '@mantine/core';
import { DurationInput, durationInUnit } from '../../../components/DurationInput.tsx';
import { formatExactDuration } from '../../../lib/format.ts';
import {
  FAIL2BAN_BOUNDS,
  RULE_CATEGORIES,
  type BanRule,
  type RuleCategory,
  type SlowRule,
} from '../api/fail2ban-settings.ts';

/** One category's own numbers, the normal and the slow window's; NaN: the global value applies. */
export type CategoryRule = BanRule & SlowRule;
export type CategoryValues = Record<RuleCategory, CategoryRule>;

/** Which window a table edits: the stored names of its three numbers. */
export const WINDOWS = {
  normal: { maxretry: 'maxretry', findtime: 'findtime', bantime: 'bantime' },
  slow: { maxretry: 'slowMaxretry', findtime: 'slowFindtime', bantime: 'slowBantime' },
} as const;
type Window = keyof typeof WINDOWS;
type Name = keyof CategoryRule;

/** The server's field name of one cell, for its 422 (`categories.sip.maxretry`). */
export const cellField = (category: RuleCategory, name: Name) => `categories.${category}.${name}` as const;
export const CELL_FIELDS = RULE_CATEGORIES.flatMap((c) =>
  Object.values(WINDOWS).flatMap((w) => Object.values(w).map((n) => cellField(c.value, n))),
);
export type CellField = (typeof CELL_FIELDS)[number];

/**
 * SIP, IAX, AMI and HTTP each with failures, window and ban length (of the normal or the slow
 * window); an empty cell falls back to the global value, shown as its placeholder. Scrolls
 * sideways on a phone, like every table here.
 */
export function CategoryRulesTable({
  window = 'normal',
  values,
  global,
  onChange,
  errors,
}: {
  window?: Window;
  values: CategoryValues;
  global: CategoryRule;
  onChange: (category: RuleCategory, name: Name, value: number) => void;
  errors: Partial<Record<CellField, string>>;
}) {
  const names = WINDOWS[window];
  const slow = window === 'slow';
  const prefix = slow ? 'slow ' : '';
  const title = `category-rules-title-${window}`;
  const durations = [
    { name: names.findtime, word: `${prefix}window` },
    { name: names.bantime, word: `${prefix}ban length` },
  ];
  return (
    <div>
      <Text size="sm" fw={500} id={title}>
        {slow ? 'Slow window per service' : 'Per service'}
      </Text>
      <Text size="xs" c="dimmed" mb="xs">
        Leave a cell empty to use the global value. Failures {FAIL2BAN_BOUNDS[names.maxretry].min}-
        {FAIL2BAN_BOUNDS[names.maxretry].max}; window up to {formatExactDuration(FAIL2BAN_BOUNDS[names.findtime].max)};
        ban up to {formatExactDuration(FAIL2BAN_BOUNDS[names.bantime].max)}.
      </Text>
      <Table.ScrollContainer minWidth={620}>
        <Table
          aria-labelledby={title}
          verticalSpacing="xs"
          data-testid={slow ? 'slow-category-rules' : 'category-rules'}
        >
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
                      aria-label={`${label}: ${prefix}failures`}
                      placeholder={`${global[names.maxretry]} (global)`}
                      value={Number.isNaN(row[names.maxretry]) ? '' : row[names.maxretry]}
                      onChange={(typed) => onChange(category, names.maxretry, typed === '' ? NaN : Number(typed))}
                      error={errors[cellField(category, names.maxretry)]}
                      hideControls
                      miw={110}
                    />
                  </Table.Td>
                  {durations.map(({ name, word }) => (
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
