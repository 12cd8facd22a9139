import { Text } from '@mantine/core';

/** A table cell's text that may be missing: the value, or a dimmed stand-in ("—", "Automatic"). */
export function OptionalText({ value, fallback = '—' }: { value: string | null | undefined; fallback?: string }) {
  return (
    <Text size="sm" c={value ? undefined : 'dimmed'}>
      {value || fallback}
    </Text>
  );
}
